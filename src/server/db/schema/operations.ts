/**
 * Operations: the ledger of deleted accounts (issue 33). An account deleted after a backup was made
 * would come back if that backup were restored; `restore` deletes these accounts again before the
 * service reopens. Only the account's opaque id and when it went: no name, address or anything else
 * that says who it was (the id is random and refers to nothing once the account is gone).
 */
import { pgTable, text } from 'drizzle-orm/pg-core';
import { stampedAt } from './columns.ts';

export const deletedAccounts = pgTable('deleted_accounts', {
  /** The deleted user's id (no foreign key: the user row is gone). */
  userId: text('user_id').primaryKey(),
  deletedAt: stampedAt('deleted_at'),
});
