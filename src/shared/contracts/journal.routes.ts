/** The encrypted journal's routes: the signed-in owner's keyring and sealed records (contracts: journal.ts). */
import type { journalSchemas } from '#shared/contracts/journal.ts';
import { defineRoutes } from '#shared/contracts/route.ts';

export const journalApi = defineRoutes<typeof journalSchemas>()('journal', { defaults: { policy: 'signed-in', cache: 'no-store' } }, {
  /** The keyring, or null before the journal is set up. */
  keyring: { method: 'GET', path: '/api/journal/keyring' },
  /** 201; 409 when another device set the journal up first. */
  createKeyring: { method: 'POST', path: '/api/journal/keyring' },
  /** A new passphrase wrap (or an upgraded KDF); the recovery key stays as it is (409 otherwise). */
  updateKeyring: { method: 'PUT', path: '/api/journal/keyring' },
  /** A new data key and recovery key, exactly the next generation (decision 0061). */
  rotateKeyring: { method: 'POST', path: '/api/journal/keyring/rotation' },
  /** "Start a new journal": the keyring and every record deleted. */
  reset: { method: 'POST', path: '/api/journal/reset' },
  /** The changes after `after`, a page at a time. */
  records: { method: 'GET', path: '/api/journal/records' },
  /** Compare-and-set on `baseSeq`; a 409 carries `error.details.current`, the change that got there first. */
  saveRecord: { method: 'PUT', path: '/api/journal/records/:id' },
});
