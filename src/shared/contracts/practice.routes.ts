/** The practice routes: the signed-in person's sessions, summary, played marks and resume positions (contracts: practice.ts). */
import type { practiceSchemas } from '#shared/contracts/practice.ts';
import { defineRoutes } from '#shared/contracts/route.ts';

export const practiceApi = defineRoutes<typeof practiceSchemas>()('practice', { defaults: { policy: 'signed-in', cache: 'no-store' } }, {
  /** Idempotent per play: 201 when recorded now, 200 when it already was. */
  record: { method: 'POST', path: '/api/sessions' },
  summary: { method: 'GET', path: '/api/practice' },
  /** The meditations completed at least once, for the listing's 'Played' marks. */
  played: { method: 'GET', path: '/api/practice/played' },
  /** Resume where you left off: every meditation with a position past its start. */
  positions: { method: 'GET', path: '/api/practice/positions' },
  /** The newest position wins across devices. */
  savePosition: { method: 'PUT', path: '/api/practice/positions/:id' },
  preferences: { method: 'PUT', path: '/api/practice/preferences' },
});
