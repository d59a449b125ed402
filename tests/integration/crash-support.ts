/**
 * What the crash test needs around a real server process: its operator accounts made by the CLI's
 * commands before the first start, plain HTTP calls that record what was acknowledged, a multipart body,
 * and a direct look at the rows once the server has stopped.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadConfig } from '#server/config.ts';
import { openPglite, openPostgres, type DatabaseHandle } from '#server/db/client.ts';
import { runCommand } from '#server/features/operations/cli-commands.ts';
import { SHARED_AUTH_SECRET } from '#tests/setup/server-process.ts';
import { migratedDataDir } from '#tests/setup/test-db.ts';
import { TEST_PG_CONNECT_TIMEOUT_MS } from '#tests/setup/postgres-database.ts';

/**
 * The operator commands a test needs before the server's first start (its accounts), run in this
 * process on the database the server will open, through the commands' own code (runCommand, as
 * `npm run cli` and the server's control socket run them) and under the environment the server gets:
 * on PGlite a DATA_DIR holding the run's migrated database, on PostgreSQL the DATABASE_URL in `env`.
 * Not a CLI process: starting one and its database per command is the CLI test's subject, not this.
 */
export async function runCommandsBeforeStart(dataDir: string, env: Record<string, string>, commands: string[][]): Promise<void> {
  const config = loadConfig({ ...process.env, NODE_ENV: 'production', DATA_DIR: dataDir, DATABASE_URL: '', LOG_LEVEL: 'silent', ...(env.DATABASE_URL ? { AUTH_SECRET: SHARED_AUTH_SECRET } : {}), ...env });
  if (!config.databaseUrl) await migratedDataDir(dataDir);
  const database = openServerDatabase(dataDir, config.databaseUrl);
  try {
    await database.migrate();
    for (const argv of commands) {
      const { exitCode, output } = await runCommand({ db: database.db, database, config }, argv);
      if (exitCode !== 0) throw new Error(`cli ${argv.join(' ')} failed (${exitCode}): ${output}`);
    }
  } finally {
    await database.close();
  }
}

/** The database the server used, opened by the test once the server has stopped (PGlite) or at any time (PostgreSQL). */
export function openServerDatabase(dataDir: string, databaseUrl: string | undefined): DatabaseHandle {
  return databaseUrl ? openPostgres(databaseUrl, 2, { connectTimeoutMs: TEST_PG_CONNECT_TIMEOUT_MS }) : openPglite({ dataDir: join(dataDir, 'pglite') });
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
