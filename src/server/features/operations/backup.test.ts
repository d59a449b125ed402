import { randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig, type Config } from '#server/config.ts';
import { openPglite, type Database, type DatabaseHandle } from '#server/db/client.ts';
import { user, userRoles } from '#server/db/schema/auth.ts';
import { subscribers } from '#server/db/schema/billing.ts';
import { meditationSessions } from '#server/db/schema/practice.ts';
import { favourites } from '#server/db/schema/favourites.ts';
import { journalRecords } from '#server/db/schema/journal.ts';
import { meditationContent } from '#server/db/schema/catalogue.ts';
import { restoreBackup, tablesInDependencyOrder, writeBackup } from '#server/features/operations/backup.ts';
import { runCommand } from '#server/features/operations/cli-commands.ts';
import { readTarGz, writeTarGz } from '#server/features/operations/tar.ts';
import { buildMeditation } from '#tests/factories.ts';
import { createTestDatabase, testDatabaseKinds } from '#tests/setup/test-db.ts';

const work = mkdtempSync(join(tmpdir(), 'hm-backup-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

function configFor(dataDir: string, databaseUrl?: string): Config {
  return loadConfig({ DATA_DIR: dataDir, DATABASE_URL: '', SEED_DEMO: 'false', LOG_LEVEL: 'silent' }, { databaseUrl });
}

/** An account with a role, a comped subscription, a favourite and a practice session; a meditation with audio. */
async function fillDeployment(database: DatabaseHandle, config: Config) {
  const run = (...argv: string[]) => runCommand({ db: database.db, database, config }, argv);
  expect(await run('create-user', 'rae@example.com', 'quiet-harbour-1', '--name', 'Rae Restore', '--verified')).toMatchObject({ exitCode: 0 });
  expect(await run('grant-role', 'rae@example.com', 'editor')).toMatchObject({ exitCode: 0 });
  expect(await run('grant-subscription', 'rae@example.com', '--days', '30')).toMatchObject({ exitCode: 0 });
  const [rae] = await database.db.select().from(user).where(eq(user.email, 'rae@example.com'));
  const meditation = await buildMeditation(database.db, { title: "Harbour at Dawn — l'aube" });
  const [content] = await database.db.select().from(meditationContent).where(eq(meditationContent.meditationId, meditation.id));
  mkdirSync(join(config.dataDir, 'media', 'meditations'), { recursive: true });
  writeFileSync(join(config.dataDir, 'media', 'meditations', content.storageKey), Buffer.alloc(70_000, 7));
  await database.db.insert(favourites).values({ userId: rae.id, meditationId: meditation.id });
  await database.db.insert(meditationSessions).values({ userId: rae.id, meditationId: meditation.id, clientId: randomUUID(), durationMinutes: 5, completedAt: new Date('2026-01-02T03:04:05.678Z') });
  // Sealed journal records, so the change sequence has moved on (decision 0031).
  for (let i = 0; i < 3; i += 1) await database.db.insert(journalRecords).values({ userId: rae.id, id: randomUUID(), iv: 'AAAAAAAAAAAAAAAA', data: 'AAAA' });
  return { userId: rae.id, meditationId: meditation.id, storageKey: content.storageKey };
}

async function snapshot(db: Database, userId: string) {
  const [account] = await db.select().from(user).where(eq(user.id, userId));
  const role = (await db.select().from(userRoles).where(eq(userRoles.userId, userId))).at(0);
  const [subscription] = await db.select().from(subscribers).where(eq(subscribers.userId, userId));
  const favs = await db.select().from(favourites).where(eq(favourites.userId, userId));
  const sessions = await db.select().from(meditationSessions).where(eq(meditationSessions.userId, userId));
  return { account, role: role?.role, subscription, favs, sessions };
}

describe('table order', () => {
  it('puts every parent before its children', () => {
    const names = tablesInDependencyOrder().map((t) => (t as unknown as Record<symbol, string>)[Symbol.for('drizzle:Name')]);
    expect(names.indexOf('user')).toBeLessThan(names.indexOf('subscribers'));
    expect(names.indexOf('meditation_previews')).toBeLessThan(names.indexOf('favourites'));
    expect(new Set(names).size).toBe(names.length);
  });
});

describe.each(testDatabaseKinds())('backup and restore on %s', (kind) => {
  it('brings back every account, role, subscription, favourite, practice session, meditation, audio file and secret', async () => {
    const source = await createTestDatabase(kind);
    const dataDir = join(work, `${kind}-source`);
    const config = configFor(dataDir, kind === 'postgres' ? 'postgres://the-source' : undefined);
    mkdirSync(join(dataDir, 'secrets'), { recursive: true });
    writeFileSync(join(dataDir, 'secrets', 'auth-secret'), 'the-auth-secret');
    const made = await fillDeployment(source, config);
    const before = await snapshot(source.db, made.userId);

    const file = join(work, `${kind}.tar.gz`);
    const manifest = await writeBackup({ config, database: source, file });
    expect(manifest).toMatchObject({ engine: kind, media: 1, tables: { user: 1, favourites: 1, meditation_sessions: 1, subscribers: 1 } });
    expect(statSync(file).mode & 0o077).toBe(0);
    await expect(writeBackup({ config, database: source, file })).rejects.toThrow('already exists');
    const names: string[] = [];
    await readTarGz(file, ({ name }) => void names.push(name));
    expect(names[0]).toBe('harbour-mind-backup.json');
    expect(names).toContain(`media/meditations/${made.storageKey}`);
    expect(names.includes('pglite.tar.gz')).toBe(kind === 'pglite');

    // Into an embedded DATA_DIR (from PostgreSQL too: the logical dump moves a deployment).
    const restoredDir = join(work, `${kind}-restored`);
    await restoreBackup({ config: configFor(restoredDir), file, force: false, openTarget: () => source });
    expect(readFileSync(join(restoredDir, 'secrets', 'auth-secret'), 'utf8')).toBe('the-auth-secret');
    expect(readFileSync(join(restoredDir, 'media', 'meditations', made.storageKey))).toEqual(Buffer.alloc(70_000, 7));
    const restored = openPglite({ dataDir: join(restoredDir, 'pglite') });
    try {
      expect(await snapshot(restored.db, made.userId)).toEqual(before);
      // The journal's change numbers go on after the restored ones, so no device is handed a number it has seen.
      const [{ highest }] = await restored.db.select({ highest: sql<number>`max(${journalRecords.seq})::int` }).from(journalRecords);
      expect(highest).toBeGreaterThanOrEqual(3);
      const [next] = await restored.db.insert(journalRecords).values({ userId: made.userId, id: randomUUID(), iv: 'AAAAAAAAAAAAAAAA', data: 'AAAA' }).returning({ seq: journalRecords.seq });
      expect(next.seq).toBeGreaterThan(highest);
    } finally {
      await restored.close();
    }
    await expect(restoreBackup({ config: configFor(restoredDir), file, force: false, openTarget: () => source })).rejects.toThrow('--force');

    if (kind === 'postgres') {
      // Into a PostgreSQL database: refused while it holds data, replaced with --force.
      const targetDir = join(work, 'postgres-target');
      const keep = { ...source, close: async () => {} };
      await expect(restoreBackup({ config: configFor(targetDir, 'postgres://the-target'), file, force: false, openTarget: () => keep })).rejects.toThrow('already holds data');
      await source.db.delete(favourites).where(eq(favourites.userId, made.userId));
      await restoreBackup({ config: configFor(targetDir, 'postgres://the-target'), file, force: true, openTarget: () => keep });
      expect(await snapshot(source.db, made.userId)).toEqual(before);
    }
    await source.close();
  }, 60_000);
});

describe('restore', () => {
  it('refuses an archive that is not a Harbour Mind backup and leaves the folder as it was', async () => {
    const file = join(work, 'foreign.tar.gz');
    await writeTarGz(file, [{ name: 'pgdata/PG_VERSION', body: Buffer.from('18\n') }]);
    const dataDir = join(work, 'foreign-target');
    await expect(restoreBackup({ config: configFor(dataDir), file, force: false, openTarget: () => openPglite({}) })).rejects.toThrow('Not a Harbour Mind backup');
    expect(() => statSync(join(dataDir, 'pglite'))).toThrow();
  });
});
