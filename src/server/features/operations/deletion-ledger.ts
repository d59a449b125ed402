/**
 * The deletion ledger at restore time (issue 33): an account deleted after a backup was made is in
 * that backup. `restore` collects the ids of deleted accounts from every source it has (the database
 * it replaces, the backup itself, newer backups named with --deletions-from) and erases those
 * accounts again, with the deletion's own function, before any server opens the restored data.
 */
import { inArray, sql } from 'drizzle-orm';
import type { Database } from '#server/db/client.ts';
import { adminAuditLog } from '#server/db/schema/admin.ts';
import { user } from '#server/db/schema/auth.ts';
import { deletedAccounts } from '#server/db/schema/operations.ts';
import { eraseAccount } from '#server/features/account/account-erasure.ts';

/** The table's name in a backup's `database/NN-<table>.jsonl` entries. */
export const LEDGER_TABLE = 'deleted_accounts';

type LedgerEntry = { userId: string; deletedAt: Date };

/** The ledger of a database; none when the database predates it (migration 0021). */
export async function readLedger(db: Pick<Database, 'execute' | 'select'>): Promise<LedgerEntry[]> {
  // Both drivers answer a raw query with `{ rows }`; the engine-neutral Database type only says `unknown`.
  const result: unknown = await db.execute(sql`select to_regclass(${LEDGER_TABLE}) is not null as present`);
  if (!(result as { rows: { present: boolean }[] }).rows.at(0)?.present) return [];
  return db.select({ userId: deletedAccounts.userId, deletedAt: deletedAccounts.deletedAt }).from(deletedAccounts);
}

/** The ledger rows of a backup's dump (row_to_json lines: snake_case columns). */
export function ledgerFromDump(lines: readonly string[]): LedgerEntry[] {
  return lines.map((line) => {
    const row = JSON.parse(line) as { user_id: string; deleted_at: string };
    return { userId: row.user_id, deletedAt: new Date(row.deleted_at) };
  });
}

/**
 * Erases again every account of `ledger` that the restored database still holds, and writes the whole
 * ledger into it (the next restore needs it too). One audit row says how many were erased, not whom.
 * Returns that number.
 */
export async function reapplyDeletions(db: Database, ledger: readonly LedgerEntry[]): Promise<number> {
  if (ledger.length === 0) return 0;
  const when = new Map<string, Date>();
  for (const { userId, deletedAt } of ledger) if (!when.has(userId) || deletedAt < (when.get(userId) ?? deletedAt)) when.set(userId, deletedAt);
  const ids = [...when.keys()];
  return db.transaction(async (tx) => {
    let erased = 0;
    for (let start = 0; start < ids.length; start += 500) {
      const present = await tx.select({ id: user.id, email: user.email }).from(user).where(inArray(user.id, ids.slice(start, start + 500)));
      for (const person of present) {
        if (await eraseAccount(tx, { userId: person.id, email: person.email, at: when.get(person.id) ?? new Date() })) erased += 1;
      }
    }
    for (let start = 0; start < ids.length; start += 500) {
      const batch = ids.slice(start, start + 500).map((userId) => ({ userId, deletedAt: when.get(userId) ?? new Date() }));
      await tx.insert(deletedAccounts).values(batch).onConflictDoNothing();
    }
    if (erased > 0) {
      await tx.insert(adminAuditLog).values({
        adminUserId: null,
        adminEmail: null,
        action: 'account.delete.reapplied',
        targetResource: 'user',
        targetId: null,
        changes: {},
        metadata: { accounts: erased },
        userAgent: null,
        severity: 'medium',
      });
    }
    return erased;
  });
}
