/**
 * What the crash test needs around a real server process: its operator accounts made by the CLI
 * before the first start, plain HTTP calls that record what was acknowledged, a multipart body,
 * and a direct look at the rows once the server has stopped.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { openPglite, openPostgres, type DatabaseHandle } from '#server/db/client.ts';
import { SHARED_AUTH_SECRET } from '#tests/setup/server-process.ts';


/** Runs CLI commands in one process (tests/integration/crash-cli.ts), as `npm run cli` would, before the server starts. */
export function runCliBatch(dataDir: string, env: Record<string, string>, commands: string[][]): void {
  const result = spawnSync(process.execPath, ['--import', 'tsx', 'tests/integration/crash-cli.ts', JSON.stringify(commands)], {
    env: { ...process.env, NODE_ENV: 'production', DATA_DIR: dataDir, DATABASE_URL: '', LOG_LEVEL: 'silent', ...(env.DATABASE_URL ? { AUTH_SECRET: SHARED_AUTH_SECRET } : {}), ...env },
    encoding: 'utf8',
  });
  if (result.status !== 0) throw new Error(`cli batch failed (${result.status}): ${result.stdout}\n${result.stderr}`);
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
