/** The practice routes: the signed-in person's sessions, summary, played marks and resume positions (contracts: practice.ts). */
import type { practiceSchemas } from '#shared/contracts/practice.ts';
import { defineRoutes } from '#shared/contracts/route.ts';

export const practiceApi = defineRoutes<typeof practiceSchemas>()('practice', {
  /** Idempotent per play: 201 when recorded now, 200 when it already was. */
  record: { method: 'POST', path: '/api/sessions', policy: 'signed-in', cache: 'no-store' },
  summary: { method: 'GET', path: '/api/practice', policy: 'signed-in', cache: 'no-store' },
  /** The meditations completed at least once, for the listing's 'Played' marks. */
  played: { method: 'GET', path: '/api/practice/played', policy: 'signed-in', cache: 'no-store' },
  /** Resume where you left off: every meditation with a position past its start. */
  positions: { method: 'GET', path: '/api/practice/positions', policy: 'signed-in', cache: 'no-store' },
  /** The newest position wins across devices. */
  savePosition: { method: 'PUT', path: '/api/practice/positions/:id', policy: 'signed-in', cache: 'no-store' },
  preferences: { method: 'PUT', path: '/api/practice/preferences', policy: 'signed-in', cache: 'no-store' },
});
