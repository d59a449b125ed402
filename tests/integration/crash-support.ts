/**
 * What the crash test needs around a real server process: its operator accounts made by the CLI
 * before the first start, plain HTTP calls that record what was acknowledged, a multipart body,
 * a PostgreSQL database of its own, and a direct look at the rows once the server has stopped.
 */
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { openPglite, openPostgres, type DatabaseHandle } from '#server/db/client.ts';

/** The secret startServer() gives a PostgreSQL run; the CLI must use the same one. */
export const SHARED_AUTH_SECRET = 'e2e-shared-auth-secret-0123456789abcdef';

/** Runs CLI commands in one process (tests/integration/crash-cli.ts), as `npm run cli` would, before the server starts. */
export function runCliBatch(dataDir: string, env: Record<string, string>, commands: string[][]): void {
  const result = spawnSync(process.execPath, ['--import', 'tsx', 'tests/integration/crash-cli.ts', JSON.stringify(commands)], {
    env: { ...process.env, NODE_ENV: 'production', DATA_DIR: dataDir, DATABASE_URL: '', LOG_LEVEL: 'silent', ...(env.DATABASE_URL ? { AUTH_SECRET: SHARED_AUTH_SECRET } : {}), ...env },
    encoding: 'utf8',
  });
  if (result.status !== 0) throw new Error(`cli batch failed (${result.status}): ${result.stdout}\n${result.stderr}`);
}

/** A fresh, empty PostgreSQL database for one run (the server migrates it), dropped afterwards. */
export async function createPostgresDatabase(baseUrl: string): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `hm_crash_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const dropper = new pg.Client({ connectionString: baseUrl });
      await dropper.connect();
      await dropper.query(`drop database if exists ${name} with (force)`);
      await dropper.end();
    },
  };
}

/** The database the server used, opened by the test once the server has stopped (PGlite) or at any time (PostgreSQL). */
export function openServerDatabase(dataDir: string, databaseUrl: string | undefined): DatabaseHandle {
  return databaseUrl ? openPostgres(databaseUrl, 2) : openPglite({ dataDir: join(dataDir, 'pglite') });
}

export type Answer = { status: number; body: unknown };

/** One JSON call; rejects when the connection dies (the server was killed before it answered). */
export async function call(base: string, path: string, { method = 'GET', cookie, body, headers = {} }: { method?: string; cookie?: string; body?: unknown; headers?: Record<string, string> } = {}): Promise<Answer> {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { origin: base, ...(cookie ? { cookie } : {}), ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // not JSON: keep the text
  }
  return { status: res.status, body: parsed };
}

export const acknowledged = (answer: Answer) => answer.status >= 200 && answer.status < 300;

export async function signIn(base: string, email: string, password: string): Promise<string> {
  const res = await fetch(`${base}/api/auth/sign-in/email`, { method: 'POST', headers: { 'content-type': 'application/json', origin: base }, body: JSON.stringify({ email, password }) });
  if (!res.ok) throw new Error(`sign-in failed: ${res.status} ${await res.text()}`);
  return res.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ');
}

/** The head and tail of a one-file multipart upload (fields first, as the admin form sends them). */
export function multipartParts(boundary: string, fields: Record<string, string>, file: { name: string; type: string }): { head: Buffer; tail: Buffer } {
  let head = '';
  for (const [name, value] of Object.entries(fields)) head += `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
  head += `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${file.name}"\r\nContent-Type: ${file.type}\r\n\r\n`;
  return { head: Buffer.from(head), tail: Buffer.from(`\r\n--${boundary}--\r\n`) };
}

/**
 * A valid MP3 of about `bytes`: the 3-second fixture repeated. Its first frame's Info header still
 * says 3 seconds, which the upload checks accept (a longer file than its length needs is fine).
 */
export function largeMp3(bytes: number): Buffer {
  const tone = readFileSync('tests/fixtures/audio/tone-3s.mp3');
  return Buffer.concat(Array.from({ length: Math.ceil(bytes / tone.length) }, () => tone));
}

/** Names of files under a folder (recursive), or none when it does not exist. */
export function filesUnder(dir: string): string[] {
  return existsSync(dir) ? readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name).slice(dir.length + 1)) : [];
}
