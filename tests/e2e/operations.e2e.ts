/**
 * The operator's journeys from the README against the real server process on the embedded default
 * (issue 13): CLI commands while `npm start` runs, one server per data folder, a crash leaves a lock
 * the next start takes over, and a backup taken while the server runs restores into a fresh folder
 * that starts with every account, subscription, favourite, practice session and meditation.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, BrowserContext } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { startSuite } from '#tests/e2e/support/suite.ts';
import { cliCommand, serverCommand } from '#tests/setup/server-bundle.ts';
import { makeDataDir, runCli, startedDataDir, startServer, type RunningServer } from '#tests/setup/server-process.ts';
import { signedInSubscriber, signIn } from '#tests/e2e/support/people.ts';

/**
 * A command run to its end without blocking this process: a synchronous spawn stopped the event loop
 * for as long as the command took (tens of seconds on a loaded machine), and the next fetch then took
 * a pooled keep-alive connection that the server had closed meanwhile, unnoticed ("other side closed").
 */
function runToEnd(args: string[], env: Record<string, string>, timeout?: number): Promise<{ code: number | null; stdout: string; stderr: string; out: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, args, { env: { ...process.env, ...env }, encoding: 'utf8', timeout }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === 'number' ? error.code : null) : 0;
      resolve({ code, stdout, stderr, out: stdout + stderr });
    });
  });
}

/**
 * The CLI as its own process, keeping the exit code and both streams: the run's bundle of it
 * (tests/setup/server-bundle.ts), which starts in half the CPU of the sources through tsx. `asTyped`
 * runs what `npm run cli -- …` runs (the sources through tsx), once, so that path is proved too.
 */
function cli(dataDir: string, args: string[], { asTyped = false } = {}) {
  const command = asTyped ? ['--import', 'tsx', 'src/server/cli.ts'] : cliCommand();
  return runToEnd([...command, ...args], { NODE_ENV: 'production', BILLING_MODE: 'sandbox', DATA_DIR: dataDir, DATABASE_URL: '', LOG_LEVEL: 'silent' });
}

type Me = { user: { email: string } | null; role: string | null; subscribed: boolean };

async function me(server: RunningServer, context: BrowserContext): Promise<Me> {
  return (await (await context.request.get(`${server.url}/api/me`)).json()) as Me;
}

let browser: Browser;
let server: RunningServer;

beforeAll(async () => {
  const suite = await startSuite({}, { keepData: true });
  ({ server, browser } = suite);
  return async () => {
    await suite.stop();
    rmSync(server.dataDir, { recursive: true, force: true });
  };
});

describe('the CLI beside a running server', () => {
  it('grants a role, a subscription and creates an account the server sees at once', async () => {
    const context = await browser.newContext();
    await signedInSubscriber(server, context, { name: 'Opal Operator', email: 'opal@example.com', password: 'quiet-harbour-1' });
    expect((await me(server, context)).role).toBe('user');

    // The account exists only in the running server's database: the CLI must go through it.
    const granted = await cli(server.dataDir, ['grant-role', 'opal@example.com', 'admin'], { asTyped: true });
    expect(granted.out).toContain('Role admin assigned for opal@example.com');
    expect(granted.code).toBe(0);
    expect((await me(server, context)).role).toBe('admin');

    const created = await cli(server.dataDir, ['create-user', 'cora@example.com', 'quiet-harbour-2', '--name', 'Cora Comped', '--verified']);
    expect(created.out).toContain('Created cora@example.com (verified)');
    expect((await cli(server.dataDir, ['grant-subscription', 'cora@example.com', '--days', '14'])).out).toContain('Comped access for cora@example.com until');
    const cora = await browser.newContext();
    await signIn(server, cora, { email: 'cora@example.com', password: 'quiet-harbour-2' });
    expect(await me(server, cora)).toMatchObject({ user: { email: 'cora@example.com' }, subscribed: true });

    // Errors come back with their words and a non-zero code, as they do without a server.
    const ghost = await cli(server.dataDir, ['grant-role', 'ghost@example.com', 'admin']);
    expect(ghost.code).toBe(1);
    expect(ghost.stderr).toContain('No account found for ghost@example.com');
    expect((await cli(server.dataDir, ['setup-token'])).stderr).toContain('An administrator already exists');
    await Promise.all([context.close(), cora.close()]);
  });

  it('refuses a second server on the same folder, and the first keeps serving', async () => {
    const lock = JSON.parse(readFileSync(join(server.dataDir, 'server.lock'), 'utf8')) as { pid: number };
    const second = await runToEnd(serverCommand(), { NODE_ENV: 'production', BILLING_MODE: 'sandbox', DATA_DIR: server.dataDir, DATABASE_URL: '', PORT: '0', LOG_LEVEL: 'info' }, 30_000);
    expect(second.code).not.toBe(0);
    expect(second.stderr).toContain(server.dataDir);
    expect(second.stderr).toContain(`pid ${lock.pid}`);
    expect((await fetch(`${server.url}/api/health`)).status).toBe(200);
    expect((await cli(server.dataDir, ['grant-role', 'opal@example.com', 'admin'])).out).toContain('Role admin');
  });

  it('keeps the control socket private to its user', () => {
    const lock = JSON.parse(readFileSync(join(server.dataDir, 'server.lock'), 'utf8')) as { socket: string };
    expect(statSync(lock.socket).isSocket()).toBe(true);
    expect(statSync(lock.socket).mode & 0o077).toBe(0);
    expect(statSync(server.dataDir).mode & 0o077).toBe(0);
  });
});

describe('backup and restore', () => {
  it('backs up while the server runs and restores into a fresh folder that has everything', async () => {
    const context = await browser.newContext();
    const bea = await signedInSubscriber(server, context, { name: 'Bea Backup', password: 'quiet-harbour-3' });
    const catalogue = (await (await context.request.get(`${server.url}/api/meditations?category=all`)).json()) as { meditations: { id: string }[] };
    const meditationId = catalogue.meditations[0].id;
    expect((await context.request.put(`${server.url}/api/favourites/${meditationId}`, { headers: { origin: server.url } })).ok()).toBe(true);
    const sessionId = crypto.randomUUID();
    const recorded = await context.request.post(`${server.url}/api/sessions`, { data: { id: sessionId, meditationId, completedAt: new Date().toISOString(), listened: { ranges: [{ start: 0, end: 14_400 }], seconds: 14_400 } }, headers: { origin: server.url } });
    expect(recorded.ok(), await recorded.text()).toBe(true);

    const work = makeDataDir();
    const archive = join(work, 'nightly.tar.gz');
    const backup = await cli(server.dataDir, ['backup', archive]);
    expect(backup.out).toContain(`Backup written to ${archive}`);
    expect(backup.code).toBe(0);
    expect(statSync(archive).mode & 0o077).toBe(0);
    expect((await fetch(`${server.url}/api/health`)).status).toBe(200);

    // A restore never runs under a live server, and never over a folder that holds data.
    const refused = await cli(server.dataDir, ['restore', archive]);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain('is running');
    const occupied = join(work, 'occupied');
    mkdirSync(join(occupied, 'media'), { recursive: true });
    writeFileSync(join(occupied, 'media', 'keep.txt'), 'x');
    const notEmpty = await cli(occupied, ['restore', archive]);
    expect(notEmpty.code).not.toBe(0);
    expect(notEmpty.stderr).toContain('--force');
    expect(existsSync(join(occupied, 'media', 'keep.txt'))).toBe(true);

    const fresh = join(work, 'restored');
    const restored = await cli(fresh, ['restore', archive]);
    expect(restored.out).toContain(`Restored ${archive} into ${fresh}`);
    expect(restored.code).toBe(0);

    const copy = await startServer({ SEED_DEMO: 'false' }, { dataDir: fresh });
    try {
      const again = await browser.newContext();
      await signIn(copy, again, bea);
      expect(await me(copy, again)).toMatchObject({ user: { email: bea.email }, role: 'user', subscribed: true });
      const favourites = (await (await again.request.get(`${copy.url}/api/favourites`)).json()) as { favourites: { meditation: { id: string } }[] };
      expect(favourites.favourites.map((f) => f.meditation.id)).toEqual([meditationId]);
      const practice = (await (await again.request.get(`${copy.url}/api/practice?tz=UTC`)).json()) as { totalSessions: number };
      expect(practice.totalSessions).toBe(1);
      const restoredCatalogue = (await (await again.request.get(`${copy.url}/api/meditations?category=all`)).json()) as { meditations: { id: string }[] };
      expect(restoredCatalogue.meditations.map((m) => m.id).sort()).toEqual(catalogue.meditations.map((m) => m.id).sort());

      // The audio plays: a signed URL minted by the restored server serves the restored file.
      const playback = (await (await again.request.get(`${copy.url}/api/meditations/${meditationId}/playback`)).json()) as { url: string };
      const audio = await again.request.get(new URL(playback.url, copy.url).toString(), { headers: { range: 'bytes=0-1023' } });
      expect(audio.status()).toBe(206);
      expect(audio.headers()['content-type']).toMatch(/^audio\//);
      expect((await audio.body()).length).toBe(1024);

      // Accounts made with the CLI and the roles it granted came along too.
      const opal = await browser.newContext();
      await signIn(copy, opal, { email: 'opal@example.com', password: 'quiet-harbour-1' });
      expect((await me(copy, opal)).role).toBe('admin');
      await Promise.all([again.close(), opal.close(), context.close()]);
    } finally {
      await copy.stop();
      rmSync(work, { recursive: true, force: true });
    }
  });
});

describe('a crashed server', () => {
  it('leaves a stale lock that the next start takes over', async () => {
    // Three starts and a CLI run on one folder: from the run's migrated template, not migrated here.
    const dataDir = startedDataDir();
    const first = await startServer({}, { dataDir, keepData: true });
    await first.kill();
    expect(existsSync(join(dataDir, 'server.lock'))).toBe(true);
    const second = await startServer({}, { dataDir, keepData: true });
    expect(second.logs()).toMatch(/stale lock/i);
    await second.stop();
    // While no server runs, the CLI opens the folder itself (and holds it meanwhile).
    expect(runCli(dataDir, ['create-user', 'kai@example.com', 'quiet-harbour-4', '--verified'])).toContain('Created kai@example.com');
    const third = await startServer({}, { dataDir });
    try {
      expect((await cli(dataDir, ['grant-role', 'kai@example.com', 'editor'])).out).toContain('Role editor assigned');
    } finally {
      await third.stop();
    }
  });

  it('releases the folder on a clean stop', async () => {
    const dataDir = startedDataDir();
    const running = await startServer({}, { dataDir, keepData: true });
    await running.stop();
    expect(existsSync(join(dataDir, 'server.lock'))).toBe(false);
    rmSync(dataDir, { recursive: true, force: true });
  });
});
