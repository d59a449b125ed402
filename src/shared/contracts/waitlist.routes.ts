/**
 * The waitlist routes (contracts: waitlist.ts): the public sign-up and the admin's views of the list.
 * The CSV export (GET /api/admin/waitlist/export) is a download and stays outside the table.
 */
import type { waitlistSchemas } from '#shared/contracts/waitlist.ts';
import { defineRoutes } from '#shared/contracts/route.ts';

export const waitlistApi = defineRoutes<typeof waitlistSchemas>()('waitlist', { defaults: { policy: 'admin', cache: 'no-store' } }, {
  /** 201 with the entry's id; rate-limited by address in the service. */
  join: { method: 'POST', path: '/api/waitlist', policy: 'public' },
  /** A page at a time: `after` is the last id of the page before. */
  list: { method: 'GET', path: '/api/admin/waitlist' },
  clear: { method: 'DELETE', path: '/api/admin/waitlist' },
  /** Sandbox only (403 elsewhere). */
  testData: { method: 'POST', path: '/api/admin/waitlist/test-data' },
});
