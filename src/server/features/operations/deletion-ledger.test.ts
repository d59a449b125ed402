/**
 * Restoring a backup never brings back an account deleted after the backup was made (issue 33, the
 * privacy policy's "within 30 days from backups"): the deletion writes the id to the ledger, and
 * `restore` erases those accounts again, from the ledger of the database it replaces, of the backup,
 * and of newer backups named with --deletions-from.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig, type Config } from '#server/config.ts';
import { openPglite, type DatabaseHandle } from '#server/db/client.ts';
import { adminAuditLog } from '#server/db/schema/admin.ts';
import { waitlistEntries } from '#server/db/schema/waitlist.ts';
import { user } from '#server/db/schema/auth.ts';
import { securityAuditLog } from '#server/db/schema/security.ts';
import { deletedAccounts } from '#server/db/schema/operations.ts';
import { deleteAccount } from '#server/features/account/account-data.service.ts';
import { restoreBackup, writeBackup } from '#server/features/operations/backup.ts';
import { runCommand } from '#server/features/operations/cli-commands.ts';
import { createTestDatabase } from '#tests/setup/test-db.ts';

const work = mkdtempSync(join(tmpdir(), 'hm-ledger-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const configFor = (dataDir: string): Config => loadConfig({ DATA_DIR: dataDir, DATABASE_URL: '', SEED_DEMO: 'false', LOG_LEVEL: 'silent' });

/** Deletes an account as the person's own deletion does (password accepted). */
async function deleteAs(database: DatabaseHandle, email: string) {
  const [person] = await database.db.select({ id: user.id }).from(user).where(eq(user.email, email));
  await deleteAccount({ db: database.db, userId: person.id, sessionId: 'unused', verifyPassword: () => Promise.resolve(true), password: 'quiet-harbour-1' });
  return person.id;
}

/** What says the person was here: their account, their waitlist entry, security lines naming them. */
async function tracesOf(database: DatabaseHandle, email: string) {
  const accounts = await database.db.select({ id: user.id }).from(user).where(eq(user.email, email));
  const waitlist = await database.db.select().from(waitlistEntries).where(eq(waitlistEntries.email, email));
  const security = await database.db.select().from(securityAuditLog).where(eq(securityAuditLog.userEmail, email));
  return { accounts: accounts.length, waitlist: waitlist.length, security: security.length };
}

const GONE = { accounts: 0, waitlist: 0, security: 0 };
const HERE = { accounts: 1, waitlist: 1, security: 1 };

// Caps, not budgets: a restore unpacks and opens a whole PGlite database in this process (about 3 s alone),
// and the forced one does it twice; a fresh run on a loaded machine took 60 s for it.
describe('deleted accounts stay deleted after a restore', () => {
  let source: DatabaseHandle;
  const before = join(work, 'before.tar.gz');
  const after = join(work, 'after.tar.gz');
  let samId = '';

  beforeAll(async () => {
    source = await createTestDatabase('pglite');
    const config = configFor(join(work, 'source'));
    for (const [email, name] of [
      ['rae@example.com', 'Rae Stays'],
      ['sam@example.com', 'Sam Leaves'],
    ]) {
      expect(await runCommand({ db: source.db, database: source, config }, ['create-user', email, 'quiet-harbour-1', '--name', name, '--verified'])).toMatchObject({ exitCode: 0 });
      await source.db.insert(waitlistEntries).values({ name, email });
      await source.db.insert(securityAuditLog).values({ eventType: 'failed_login', severity: 'low', userEmail: email, ipAddress: '203.0.113.9' });
    }
    // The nightly backup, then Sam deletes the account, then the next night's backup.
    await writeBackup({ config, database: source, file: before });
    samId = await deleteAs(source, 'sam@example.com');
    await writeBackup({ config, database: source, file: after });
  }, 120_000);
  afterAll(() => source.close());

  it('records the deleted id, and nothing else about the person, in the ledger', async () => {
    const ledger = await source.db.select().from(deletedAccounts);
    expect(ledger.map((row) => row.userId)).toEqual([samId]);
    expect(Object.keys(ledger[0]).sort()).toEqual(['deletedAt', 'userId']);
    expect(await tracesOf(source, 'sam@example.com')).toEqual(GONE);
  });

  it('erases again, on a forced restore of an older backup, the accounts the replaced database had deleted', async () => {
    const dataDir = join(work, 'forced');
    // The deployment as it was restored once from the older backup, running since; then Sam deletes the account there.
    await restoreBackup({ config: configFor(dataDir), file: before, force: false, openTarget: () => source });
    const live = openPglite({ dataDir: join(dataDir, 'pglite') });
    expect(await tracesOf(live, 'sam@example.com')).toEqual(HERE);
    const id = await deleteAs(live, 'sam@example.com');
    await live.close();

    // Rolled back to the older backup: Sam was in it.
    const result = await restoreBackup({ config: configFor(dataDir), file: before, force: true, openTarget: () => source });
    expect(result).toMatchObject({ reapplied: 1, notes: [] });
    const restored = openPglite({ dataDir: join(dataDir, 'pglite') });
    try {
      expect(await tracesOf(restored, 'sam@example.com')).toEqual(GONE);
      expect(await tracesOf(restored, 'rae@example.com')).toEqual(HERE);
      // The ledger goes on (the next restore needs it); the audit log says how many, not whom.
      expect((await restored.db.select().from(deletedAccounts)).map((row) => row.userId)).toEqual([id]);
      const audit = await restored.db.select().from(adminAuditLog).where(eq(adminAuditLog.action, 'account.delete.reapplied'));
      expect(audit).toMatchObject([{ targetId: null, adminEmail: null, metadata: { accounts: 1 } }]);
      // The security line stays, without the person.
      expect(await restored.db.select().from(securityAuditLog).where(eq(securityAuditLog.eventType, 'failed_login'))).toHaveLength(2);
    } finally {
      await restored.close();
    }
  }, 120_000);

  it('erases them when an older backup is restored into an empty folder with the newer backup named', async () => {
    const dataDir = join(work, 'empty');
    const result = await restoreBackup({ config: configFor(dataDir), file: before, force: false, openTarget: () => source, deletionsFrom: [after] });
    expect(result.reapplied).toBe(1);
    const restored = openPglite({ dataDir: join(dataDir, 'pglite') });
    try {
      expect(await tracesOf(restored, 'sam@example.com')).toEqual(GONE);
      expect(await tracesOf(restored, 'rae@example.com')).toEqual(HERE);
    } finally {
      await restored.close();
    }
  }, 120_000);

  it('restores the newer backup as it was: the deletion is already in it', async () => {
    const dataDir = join(work, 'newer');
    const result = await restoreBackup({ config: configFor(dataDir), file: after, force: false, openTarget: () => source });
    expect(result.reapplied).toBe(0);
    const restored = openPglite({ dataDir: join(dataDir, 'pglite') });
    try {
      expect(await tracesOf(restored, 'sam@example.com')).toEqual(GONE);
      expect((await restored.db.select().from(deletedAccounts)).map((row) => row.userId)).toEqual([samId]);
    } finally {
      await restored.close();
    }
  }, 120_000);
});
