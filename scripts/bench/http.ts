/**
 * `npm run bench`: the public reads (catalogue listings, a card, health, the page shell, the entry
 * script) of the real server process (`src/server/main.ts`, production mode, demo catalogue) on
 * PGlite, and on PostgreSQL when 127.0.0.1:5432 answers, each next to a bare node:http server
 * sending the very same bytes and headers from memory, measured in the same run with the same
 * connection count. Prints figures and ratios; asserts nothing.
 *
 * BENCH_CONNECTIONS (64), BENCH_SECONDS (5), BENCH_POSTGRES_URL (postgres://postgres@127.0.0.1:5432/test).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import autocannon from 'autocannon';
import { createPostgresDatabase } from '#tests/setup/postgres-database.ts';
import { benchAudio } from './audio.ts';
import { freePort } from '#tests/setup/server-process.ts';

const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 64);
const DURATION_S = Number(process.env.BENCH_SECONDS ?? 5);
const POSTGRES_URL = process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
/** What a browser sends: the app may answer compressed, and the yardstick then sends the same compressed bytes. */
const BROWSER = { accept: '*/*', 'accept-encoding': 'gzip, deflate, br' };

type Answer = { status: number; headers: Record<string, string>; body: string };
type Row = { name: string; rps: number; p99: number; errors: number };
type Process = { url: string; stop: () => Promise<void> };
type App = Process & { dataDir: string; authSecret: string };

function stopper(child: ChildProcess): () => Promise<void> {
  return () =>
    new Promise((resolve) => {
      if (child.exitCode !== null || child.signalCode) {
        resolve();
        return;
      }
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
    });
}

/** Every run names its auth secret, so the audio bench can sign media URLs as the app does. */
const AUTH_SECRET = 'bench-secret-'.padEnd(48, 'x');

async function startApp(env: Record<string, string>): Promise<App> {
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), 'hm-bench-'));
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
    env: {
      ...process.env,
      NODE_ENV: 'production',
      BILLING_MODE: 'sandbox',
      HOST: '127.0.0.1',
      PORT: String(port),
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      // autocannon sends tens of thousands of requests a minute from one address: an allowance the
      // bench never reaches, so the brake still counts every request (its cost is in the figures).
      GLOBAL_RATE_LIMIT_PER_MINUTE: '1000000000',
      AUTH_SECRET,
      ...env,
    },
    // The log is written as in production (to a file descriptor), just not kept.
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 90_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error('the server exited during start-up');
    const ok = await fetch(`${url}/api/ready`).then((r) => r.ok, () => false);
    if (ok) break;
    if (Date.now() > deadline) throw new Error('the server did not become ready in 90 s');
    await new Promise((r) => setTimeout(r, 250));
  }
  const stop = stopper(child);
  return { url, dataDir, authSecret: AUTH_SECRET, stop: () => stop().then(() => rmSync(dataDir, { recursive: true, force: true })) };
}

/** The raw answer, bytes as sent (fetch would decompress them). */
function capture(url: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    request(url, { headers: BROWSER }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const headers: Record<string, string> = {};
        for (const [name, value] of Object.entries(res.headers)) {
          if (value === undefined || ['date', 'connection', 'keep-alive', 'transfer-encoding', 'content-length'].includes(name)) continue;
          headers[name] = Array.isArray(value) ? value.join(', ') : value;
        }
        resolve({ status: res.statusCode ?? 0, headers, body: Buffer.concat(chunks).toString('base64') });
      });
    })
      .on('error', reject)
      .end();
  });
}

async function startRaw(answers: Record<string, Answer>): Promise<Process> {
  const file = join(mkdtempSync(join(tmpdir(), 'hm-bench-raw-')), 'answers.json');
  writeFileSync(file, JSON.stringify(answers));
  const child = spawn(process.execPath, ['scripts/bench/raw-server.mjs', file], { stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise<string>((resolve) => createInterface({ input: child.stdout }).once('line', resolve));
  return { url: `http://127.0.0.1:${port}`, stop: stopper(child) };
}

async function measure(name: string, url: string): Promise<Row> {
  await autocannon({ url, headers: BROWSER, connections: 4, duration: 1 }); // warm up: JIT, caches, plans
  const result = await autocannon({ url, headers: BROWSER, connections: CONNECTIONS, duration: DURATION_S });
  return { name, rps: result.requests.average, p99: result.latency.p99, errors: result.errors + result.non2xx };
}

async function entryScript(appUrl: string): Promise<string> {
  const html = await (await fetch(appUrl)).text();
  const src = /<script type="module" crossorigin src="([^"]+)"/.exec(html)?.[1];
  if (!src) throw new Error('no entry script in index.html (is dist/web built?)');
  return src;
}

async function benchOne(label: string, env: Record<string, string>, { audio = false } = {}): Promise<void> {
  const app = await startApp(env);
  try {
    const list = (await (await fetch(`${app.url}/api/meditations?category=all`)).json()) as { meditations: { id: string }[] };
    const paths: Record<string, string> = {
      'GET /api/meditations?category=all': '/api/meditations?category=all',
      'GET /api/meditations?category=chronic-health-care': '/api/meditations?category=chronic-health-care',
      'GET /api/meditations/:id': `/api/meditations/${list.meditations[0]?.id ?? 'none'}`,
      'GET /api/health': '/api/health',
      'GET / (index.html)': '/',
      'GET entry script': await entryScript(app.url),
    };
    const answers: Record<string, Answer> = {};
    for (const path of Object.values(paths)) answers[path] = await capture(`${app.url}${path}`);
    const raw = await startRaw(answers);
    try {
      console.log(`\n${label}: ${CONNECTIONS} connections, ${DURATION_S} s each, Accept-Encoding: ${BROWSER['accept-encoding']}`);
      console.log('what'.padEnd(50), 'bytes'.padStart(7), 'app req/s'.padStart(10), 'p99 ms'.padStart(7), 'raw req/s'.padStart(10), 'p99 ms'.padStart(7), 'ratio'.padStart(6), 'errors'.padStart(7));
      for (const [name, path] of Object.entries(paths)) {
        const mine = await measure(name, `${app.url}${path}`);
        const theirs = await measure(name, `${raw.url}${path}`);
        const answer = answers[path];
        const bytes = `${Buffer.from(answer.body, 'base64').length}${answer.headers['content-encoding'] ? ` ${answer.headers['content-encoding']}` : ''}`;
        console.log(
          name.padEnd(50),
          bytes.padStart(7),
          mine.rps.toFixed(0).padStart(10),
          String(mine.p99).padStart(7),
          theirs.rps.toFixed(0).padStart(10),
          String(theirs.p99).padStart(7),
          (mine.rps / theirs.rps).toFixed(2).padStart(6),
          String(mine.errors).padStart(7),
        );
      }
    } finally {
      await raw.stop();
    }
    if (audio) await benchAudio({ appUrl: app.url, dataDir: app.dataDir, authSecret: app.authSecret, connections: CONNECTIONS, seconds: DURATION_S });
  } finally {
    await app.stop();
  }
}

async function postgresAnswers(): Promise<boolean> {
  const pg = await import('pg');
  const client = new pg.default.Client({ connectionString: POSTGRES_URL, connectionTimeoutMillis: 1500 });
  try {
    await client.connect();
    await client.end();
    return true;
  } catch {
    return false;
  }
}

// Audio does not depend on the database engine: measured once, on the embedded default.
await benchOne('PGlite (embedded default)', {}, { audio: true });
if (await postgresAnswers()) {
  const database = await createPostgresDatabase(POSTGRES_URL, 'hm_bench');
  try {
    await benchOne('PostgreSQL', { DATABASE_URL: database.url });
  } finally {
    await database.drop();
  }
} else {
  console.log(`\nPostgreSQL: not measured (${POSTGRES_URL} does not answer).`);
}
