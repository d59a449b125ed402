/** The journal-share routes: the owner's links to sealed entries, and the recipient's read (contracts: journal-share.ts). */
import type { journalShareSchemas } from '#shared/contracts/journal-share.ts';
import { defineRoutes } from '#shared/contracts/route.ts';

export const journalShareApi = defineRoutes<typeof journalShareSchemas>()('journal-share', { defaults: { policy: 'signed-in', cache: 'no-store' } }, {
  /** 201; needs the subscription, rate-limited per account. */
  create: { method: 'POST', path: '/api/journal/shares' },
  list: { method: 'GET', path: '/api/journal/shares' },
  /** Another account's link answers 404, as a missing one. */
  revoke: { method: 'DELETE', path: '/api/journal/shares/:id' },
  /** The recipient's page: anyone with the link, rate-limited per address; counts one view. */
  read: { method: 'GET', path: '/api/shared/:id', policy: 'public', cache: 'no-store' },
});
