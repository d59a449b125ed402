/**
 * DATA_DIR holds the PGlite database (its WAL carries live session tokens), generated secrets,
 * the mail outbox and audio (security issue 12, item 11). The real server, started as its own
 * process on a fresh DATA_DIR, must keep all of it private to its own user, and tighten a
 * DATA_DIR that an operator created readable by others.
 */
import { chmodSync, lstatSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { signInAt } from '#tests/setup/auth-helpers.ts';
import { startServer, type RunningServer } from '#tests/setup/server-process.ts';
import { waitForMail } from '#tests/setup/outbox.ts';

/** Every folder and file under `root` with its permission bits. */
function walk(root: string): { path: string; dir: boolean; mode: number }[] {
  const entries: { path: string; dir: boolean; mode: number }[] = [];
  const visit = (path: string) => {
    const stat = lstatSync(path);
    entries.push({ path, dir: stat.isDirectory(), mode: stat.mode & 0o777 });
    if (stat.isDirectory()) for (const name of readdirSync(path)) visit(join(path, name));
  };
  visit(root);
  return entries;
}
const readableByOthers = (entries: ReturnType<typeof walk>) => entries.filter((e) => e.mode & 0o077).map((e) => `${e.path} ${e.mode.toString(8)}`);

const env = { NODE_ENV: 'test', BILLING_MODE: 'sandbox', SEED_DEMO: 'false', LOG_LEVEL: 'info' };

describe('DATA_DIR permissions', () => {
  const parent = mkdtempSync(join(tmpdir(), 'hm-perms-'));
  const dataDir = join(parent, 'data'); // does not exist yet: the server creates it
  let server: RunningServer | undefined;
  afterAll(async () => {
    await server?.stop();
    rmSync(parent, { recursive: true, force: true });
  });

  it('keeps the database, media, outbox and secrets readable only by the server’s user', async () => {
    // With the demo catalogue, so the seeded audio copies are checked too.
    server = await startServer({ ...env, SEED_DEMO: 'true' }, { dataDir, keepData: true });
    const headers = { 'content-type': 'application/json', origin: server.url };
    const email = 'private@example.com';
    const signUp = await fetch(`${server.url}/api/auth/sign-up/email`, { method: 'POST', headers, body: JSON.stringify({ name: 'Pat Private', email, password: 'calm-waters-1' }) });
    expect(signUp.status).toBe(200);
    const mail = await waitForMail(dataDir, email, /Confirm your e-mail/);
    const link = new URL(mail.links.find((l) => l.includes('/api/auth/verify-email'))!);
    await fetch(`${server.url}${link.pathname}${link.search}`, { redirect: 'manual' });
    // Signed in: the session is written too (signInAt throws unless the answer is 200).
    expect(await signInAt(server.url, email, 'calm-waters-1')).toContain('session_token');

    const whileRunning = walk(dataDir);
    await server.stop(); // PGlite writes its last pages on close
    server = undefined;
    const afterStop = walk(dataDir);

    expect(lstatSync(dataDir).mode & 0o777).toBe(0o700);
    expect(afterStop.some((e) => e.path.startsWith(join(dataDir, 'pglite')) && !e.dir)).toBe(true);
    expect(afterStop.some((e) => e.path.startsWith(join(dataDir, 'outbox')) && e.path.endsWith('.eml'))).toBe(true);
    expect(afterStop.some((e) => e.path.startsWith(join(dataDir, 'secrets')) && !e.dir)).toBe(true);
    expect(afterStop.some((e) => e.path.startsWith(join(dataDir, 'media')) && e.path.endsWith('.mp3'))).toBe(true);
    expect(readableByOthers(whileRunning)).toEqual([]);
    expect(readableByOthers(afterStop)).toEqual([]);
  }, 120_000);

  it('tightens an existing DATA_DIR that others could read, and says so', async () => {
    chmodSync(dataDir, 0o755);
    chmodSync(join(dataDir, 'outbox'), 0o775);
    server = await startServer(env, { dataDir, keepData: true });
    expect(lstatSync(dataDir).mode & 0o777).toBe(0o700);
    expect(lstatSync(join(dataDir, 'outbox')).mode & 0o777).toBe(0o700);
    expect(server.logs()).toMatch(/readable by other users/);
  }, 120_000);
});
