/** The account routes (contracts: account.ts): Account › Your data, the export and the deletion (issue 18). */
import type { accountSchemas } from '#shared/contracts/account.ts';
import { defineRoutes } from '#shared/contracts/route.ts';

export const accountApi = defineRoutes<typeof accountSchemas>()('account', { defaults: { policy: 'signed-in', cache: 'no-store' } }, {
  /** Everything the server holds about the person (docs/data-export.md), as a JSON attachment; a few an hour. */
  export: { method: 'GET', path: '/api/account/export' },
  /** What the deletion dialog needs first: whether a password proves it is them, and what happens to a subscription. */
  deletion: { method: 'GET', path: '/api/account/deletion' },
  /** Deletes the account at once (password or a recent sign-in, and the typed word); the session cookies expire. */
  delete: { method: 'POST', path: '/api/account/delete' },
});
