import { spawnSync } from 'node:child_process';
import { lstatSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { loadConfig } from '#server/config.ts';
import { user, userRoles } from '#server/db/schema/auth.ts';
import { subscribers } from '#server/db/schema/billing.ts';
import { runCommand } from '#server/features/operations/cli-commands.ts';
import { openDatabase } from '#server/startup.ts';
import { cliCommand } from '#tests/setup/server-bundle.ts';
import { createThrowawayPostgres, migratedDataDir } from '#tests/setup/test-db.ts';

const dataDir = mkdtempSync(join(tmpdir(), 'hm-cli-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

function cli(...args: string[]) {
  return cliWith({ DATA_DIR: dataDir }, ...args);
}

function cliWith(env: Record<string, string>, ...args: string[]) {
  const result = spawnSync(process.execPath, [...cliCommand(), ...args], {
    env: { ...process.env, DATABASE_URL: '', LOG_LEVEL: 'silent', SEED_DEMO: 'false', ...env },
    encoding: 'utf8',
  });
  return { code: result.status, out: result.stdout + result.stderr };
}

/** A command as cli.ts runs it (migrating first), in this process; the database is closed again so a process can take the folder. */
async function inProcess(env: Record<string, string>, ...argv: string[]) {
  const config = loadConfig({ DATABASE_URL: '', LOG_LEVEL: 'silent', SEED_DEMO: 'false', ...env });
  const database = openDatabase(config);
  try {
    await database.migrate();
    return await runCommand({ db: database.db, database, config }, argv);
  } finally {
    await database.close();
  }
}

describe('npm run cli', () => {
  it('creates a verified user and grants a role, as a separate process on the embedded database', async () => {
    // An existing deployment's folder (a fresh one is the next test's).
    await migratedDataDir(dataDir);
    // As the operator types it, in a process of its own: a success and a refusal, each with its exit code.
    // A process costs about 3 CPU-seconds (Node, the bundle and PGlite start every time) and far longer on a
    // loaded machine; the commands' other answers are the same code without the process: run in this one.
    const created = cli('create-user', 'Admin@Example.com', 'harbour-1', '--name', 'Ada Admin', '--verified');
    expect(created.out).toContain('Created admin@example.com (verified)');
    expect(created.code).toBe(0);
    const refused = cli('grant-role', 'admin@example.com', 'superuser');
    expect(refused.code).toBe(1);
    expect(refused.out).toContain('Usage: npm run cli');

    const config = loadConfig({ DATA_DIR: dataDir, DATABASE_URL: '', LOG_LEVEL: 'silent', SEED_DEMO: 'false' });
    const database = openDatabase(config);
    const run = (...argv: string[]) => runCommand({ db: database.db, database, config }, argv);
    expect(await run('grant-role', 'admin@example.com', 'admin')).toMatchObject({ exitCode: 0, output: 'Role admin assigned for admin@example.com' });
    expect((await run('grant-subscription', 'admin@example.com', '--days', '14')).output).toContain('Comped access for admin@example.com until');
    expect(await run('create-user', 'admin@example.com', 'harbour-1')).toMatchObject({ exitCode: 1, output: 'An account with admin@example.com already exists' });
    expect(await run('create-user', 'x@example.com', '123')).toMatchObject({ exitCode: 1, output: 'Password must be at least 6 characters long' });
    expect(await run('grant-role', 'admin@example.com', 'editor')).toMatchObject({ exitCode: 0, output: 'Role editor modified for admin@example.com' });
    expect(await run('grant-role', 'ghost@example.com', 'admin')).toMatchObject({ exitCode: 1, output: expect.stringContaining('No account found for ghost@example.com') });
    expect((await run('grant-subscription', 'admin@example.com', '--days', 'lots')).exitCode).toBe(1);

    const [row] = await database.db.select().from(user).where(eq(user.email, 'admin@example.com'));
    expect(row.emailVerified).toBe(true);
    expect(row.name).toBe('Ada Admin');
    const [role] = await database.db.select().from(userRoles).where(eq(userRoles.userId, row.id));
    expect(role.role).toBe('editor');
    const [sub] = await database.db.select().from(subscribers).where(eq(subscribers.userId, row.id));
    expect(sub).toMatchObject({ provider: 'comped', plan: 'comped', status: 'active' });
    const days = (sub.currentPeriodEnd!.getTime() - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(13.9);
    expect(days).toBeLessThanOrEqual(14);
    await database.close();
  }, 120_000);

  it('keeps what it writes in DATA_DIR readable only by its own user', () => {
    const fresh = join(dataDir, 'fresh-data'); // does not exist yet: the CLI creates it
    const result = spawnSync(process.execPath, [...cliCommand(), 'create-user', 'quiet@example.com', 'harbour-1'], {
      env: { ...process.env, DATA_DIR: fresh, DATABASE_URL: '', LOG_LEVEL: 'silent', SEED_DEMO: 'false' },
      encoding: 'utf8',
    });
    expect(result.stdout + result.stderr).toContain('Created quiet@example.com');
    const open: string[] = [];
    const visit = (path: string) => {
      const stat = lstatSync(path);
      if (stat.mode & 0o077) open.push(`${path} ${(stat.mode & 0o777).toString(8)}`);
      if (stat.isDirectory()) for (const name of readdirSync(path)) visit(join(path, name));
    };
    visit(fresh);
    expect(lstatSync(fresh).mode & 0o777).toBe(0o700);
    expect(readdirSync(join(fresh, 'outbox')).some((f) => f.endsWith('.eml'))).toBe(true);
    expect(open).toEqual([]);
  }, 90_000);
});

describe('npm run cli -- backup / restore with no server running', () => {
  it('backs up an embedded DATA_DIR and restores it into an empty one (releasing the folder after each command)', async () => {
    const source = join(dataDir, 'backup-source');
    await migratedDataDir(source);
    const restored = join(dataDir, 'backup-restored');
    // The account in this process; the backup and the restore as the operator runs them, each a process that must let the folder go.
    expect(await inProcess({ DATA_DIR: source }, 'create-user', 'bo@example.com', 'harbour-1', '--verified')).toMatchObject({ exitCode: 0 });
    const archive = join(dataDir, 'embedded.tar.gz');
    expect(cliWith({ DATA_DIR: source }, 'backup', archive).out).toContain(`Backup written to ${archive} (1 accounts`);
    expect(readdirSync(source)).not.toContain('server.lock');
    expect(cliWith({ DATA_DIR: restored }, 'restore', archive).out).toContain(`Restored ${archive} into ${restored}`);
    expect(readdirSync(restored)).not.toContain('server.lock');
    expect(await inProcess({ DATA_DIR: restored }, 'grant-role', 'bo@example.com', 'editor')).toMatchObject({ exitCode: 0, output: 'Role editor assigned for bo@example.com' });
  }, 120_000);

  it.runIf(inject('postgresUrl'))('backs up a PostgreSQL database directly and restores it only over an empty one, or with --force', async () => {
    const database = await createThrowawayPostgres('hm_cli', { migrated: false });
    const env = { DATA_DIR: join(dataDir, 'pg'), DATABASE_URL: database.url, AUTH_SECRET: 'cli-test-secret-0123456789abcdef' };
    try {
      expect(await inProcess(env, 'create-user', 'pia@example.com', 'harbour-1', '--verified')).toMatchObject({ exitCode: 0 });
      const archive = join(dataDir, 'postgres.tar.gz');
      expect(cliWith(env, 'backup', archive).out).toContain('(1 accounts');
      const refused = cliWith(env, 'restore', archive);
      expect(refused.code).toBe(1);
      expect(refused.out).toContain('already holds data');
      expect(cliWith(env, 'restore', archive, '--force').out).toContain('Restored');
      expect(await inProcess(env, 'grant-role', 'pia@example.com', 'admin')).toMatchObject({ exitCode: 0, output: 'Role admin assigned for pia@example.com' });
    } finally {
      await database.drop();
    }
  }, 120_000);
});
