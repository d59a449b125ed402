#!/usr/bin/env node
/**
 * `npm run security:scan` (issue 12): the app on a throwaway DATA_DIR and a free port, a verified
 * signed-in user, sqlmap at level 1 against the public and signed-in JSON routes, any 5xx the server
 * answered meanwhile, then the attack suite (tests/integration plus *security* / *attack* tests).
 * Prints one line per target and exits non-zero on any finding. Slow (minutes): not part of npm test.
 *
 * sqlmap is Debian's package; it is installed with apt-get when missing (as root, or through sudo).
 * The server trusts one proxy hop and sqlmap's `xforwardedfor` tamper gives every payload its own
 * client address, as a botnet would: per-IP limits (waitlist: 5 a day) then do not hide the routes
 * behind a 429 after the fifth payload. The per-account sign-in lockout still applies.
 *
 * SCAN_KEEP=1 keeps the temporary folder (server log, sqlmap output) for reading afterwards.
 */
import { spawn, spawnSync } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { randomBytes, randomUUID } from 'node:crypto';

const ROOT = resolve(import.meta.dirname, '..');
const started = Date.now();
const log = (line) => console.log(`[scan ${((Date.now() - started) / 1000).toFixed(0).padStart(4)}s] ${line}`);

function asRoot(args) {
  const isRoot = process.getuid?.() === 0;
  const result = spawnSync(isRoot ? args[0] : 'sudo', isRoot ? args.slice(1) : args, { stdio: 'inherit', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
  if (result.status !== 0) throw new Error(`${args.join(' ')} failed`);
}

function ensureSqlmap() {
  if (spawnSync('sqlmap', ['--version'], { stdio: 'ignore' }).status === 0) return;
  log('Installing Debian’s sqlmap…');
  asRoot(['apt-get', 'update', '-q']);
  asRoot(['apt-get', 'install', '-y', '-q', '--no-install-recommends', 'sqlmap']);
}

function freePort() {
  return new Promise((res, rej) => {
    const server = createServer();
    server.on('error', rej);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => res(port));
    });
  });
}

async function waitForHealth(base, child, timeoutMs = 90_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode} before answering`);
    try {
      const res = await fetch(`${base}/api/health`);
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error('the server did not answer /api/health in time');
}

/** Runs sqlmap on one target; resolves to 'injectable' | 'clean' | 'error' with the reason. */
function runSqlmap(target, { base, cookie, origin, outDir }) {
  const headers = [`Origin: ${origin}`, ...(target.data ? ['Content-Type: application/json'] : [])].join('\\n');
  const args = [
    '-u', base + target.path,
    '--batch', '--level=1', '--risk=1',
    '--flush-session', '--disable-coloring', '--drop-set-cookie',
    '--timeout=15', '--retries=1',
    '--tamper=xforwardedfor',
    `--output-dir=${outDir}`,
    `--headers=${headers}`,
    ...(target.method ? [`--method=${target.method}`] : []),
    ...(target.data ? [`--data=${target.data}`] : []),
    ...(target.signedIn ? [`--cookie=${cookie}`] : []),
    // A wrong password is a 401 by design: without this sqlmap stops at its first request.
    ...(target.ignoreCode ? [`--ignore-code=${target.ignoreCode}`] : []),
  ];
  return new Promise((res) => {
    const child = spawn('sqlmap', args, { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, TERM: 'dumb' } });
    let out = '';
    child.stdout.on('data', (c) => (out += c));
    child.stderr.on('data', (c) => (out += c));
    const timer = setTimeout(() => child.kill('SIGTERM'), 10 * 60_000);
    child.on('close', (code) => {
      clearTimeout(timer);
      writeFileSync(`${outDir}.txt`, out);
      const hostLog = readLogs(outDir);
      if (/identified the following injection point|parameter '[^']+' is vulnerable/i.test(out) || hostLog.trim()) {
        return res({ verdict: 'injectable', detail: (out.match(/Parameter: .*/g) ?? []).join('; ') || 'see sqlmap output', out });
      }
      if (/do not appear to be injectable|does not seem to be injectable/i.test(out)) return res({ verdict: 'clean', detail: summarise(out), out });
      return res({ verdict: 'error', detail: `sqlmap exited ${code}: ${(out.match(/\[CRITICAL\].*/g) ?? ['no verdict']).pop()}`, out });
    });
  });
}

/** sqlmap records confirmed injection points in <output-dir>/<host>/log. */
function readLogs(outDir) {
  if (!existsSync(outDir)) return '';
  return readdirSync(outDir, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => join(outDir, d.name, 'log'))
    .filter((f) => existsSync(f))
    .map((f) => readFileSync(f, 'utf8'))
    .join('\n');
}

function summarise(out) {
  const tested = new Set([...out.matchAll(/testing if (?:\(custom\) )?\w+ parameter '([^']+)'/gi)].map((m) => m[1]));
  const statuses = new Set([...out.matchAll(/(\d{3}) \((?:[A-Za-z ]+)\) - (\d+) times/g)].map((m) => m[1]));
  return `parameters ${[...tested].join(', ') || '(none reported)'}${statuses.size ? `; answers ${[...statuses].join('/')}` : ''}`;
}

/** 5xx answers in the server's JSON log (request logging is on outside NODE_ENV=test), with the request each answered. */
function serverErrors(logFile) {
  const requests = new Map();
  const errors = [];
  for (const line of readFileSync(logFile, 'utf8').split('\n')) {
    if (!line.startsWith('{')) continue;
    let entry;
    try {
      entry = JSON.parse(line);
    } catch {
      continue; // not a log line
    }
    if (entry.req) requests.set(entry.reqId, entry.req);
    if ((entry.res?.statusCode ?? 0) >= 500) errors.push({ status: entry.res.statusCode, req: requests.get(entry.reqId) });
    else if (entry.msg === 'unhandled error') errors.push({ status: 'error', req: requests.get(entry.reqId), message: entry.err?.message });
  }
  return errors;
}

async function main() {
  ensureSqlmap();
  const work = mkdtempSync(join(tmpdir(), 'hm-scan-'));
  const dataDir = join(work, 'data');
  mkdirSync(dataDir, { mode: 0o700 });
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  // A throwaway PGlite database, outbox mail and local media whatever the shell has configured.
  const unset = new Set(['DATABASE_URL', 'REDIS_URL', 'SMTP_URL', 'STRIPE_SECRET_KEY', 'STRIPE_WEBHOOK_SECRET', 'S3_BUCKET', 'AUTH_SECRET']);
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([key]) => !unset.has(key)));
  const env = { ...inherited, NODE_ENV: 'development', BILLING_MODE: 'sandbox', DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', PUBLIC_URL: origin, LOG_LEVEL: 'info', TRUST_PROXY_HOPS: '1' };

  const email = 'scan-user@example.com';
  const password = `scan-${randomBytes(9).toString('hex')}`;
  log(`Temporary DATA_DIR ${dataDir}, port ${port}`);
  const cli = spawnSync(process.execPath, ['--import', 'tsx', 'src/server/cli.ts', 'create-user', email, password, '--verified', '--name', 'Scan User'], { cwd: ROOT, env, encoding: 'utf8' });
  if (cli.status !== 0) throw new Error(`create-user failed: ${cli.stderr || cli.stdout}`);
  log(cli.stdout.trim());

  const serverLog = join(work, 'server.log');
  const logStream = createWriteStream(serverLog);
  const server = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  server.stdout.pipe(logStream);
  server.stderr.pipe(logStream);
  const stopServer = () => new Promise((r) => (server.exitCode !== null ? r() : (server.once('exit', r), server.kill('SIGTERM'))));

  const results = [];
  let attack = { status: 1 };
  let fiveHundreds = [];
  try {
    await waitForHealth(origin, server);
    log(`Server up at ${origin}`);

    const signIn = await fetch(`${origin}/api/auth/sign-in/email`, { method: 'POST', headers: { origin, 'content-type': 'application/json' }, body: JSON.stringify({ email, password }) });
    if (signIn.status !== 200) throw new Error(`sign-in answered ${signIn.status}: ${await signIn.text()}`);
    const cookie = signIn.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ');
    const catalogue = await (await fetch(`${origin}/api/meditations`)).json();
    const meditationId = catalogue.meditations?.[0]?.id ?? randomUUID();
    const json = (value) => JSON.stringify(value);
    const authed = { origin, cookie, 'content-type': 'application/json' };
    /** A sandbox subscription, so that cancel answers 200 to its baseline request rather than 404. */
    const subscribe = async () => {
      const checkout = await fetch(`${origin}/api/billing/checkout`, { method: 'POST', headers: authed, body: json({ plan: 'monthly' }) });
      const id = /cs_sandbox_[0-9a-f]+/.exec((await checkout.json()).url ?? '')?.[0];
      const done = id && (await fetch(`${origin}/api/billing/sandbox/sessions/${id}/complete`, { method: 'POST', headers: authed, body: '{}' }));
      if (!done?.ok) throw new Error(`could not subscribe the scan user (checkout ${checkout.status})`);
    };

    /** Public and signed-in JSON routes, with a realistic value in each parameter sqlmap will test. */
    const targets = [
      { name: 'catalogue list', path: '/api/meditations?category=mindfulness' },
      { name: 'catalogue item', path: `/api/meditations/${meditationId}*` },
      { name: 'waitlist', path: '/api/waitlist', data: json({ name: 'Sam Jones', email: 'sam.jones@example.com', reason: 'Sleep better', website: '' }) },
      { name: 'sign-in', path: '/api/auth/sign-in/email', data: json({ email: 'someone@example.com', password: 'not-the-password' }), ignoreCode: 401 },
      { name: 'sign-up', path: '/api/auth/sign-up/email', data: json({ name: 'New Person', email: 'new.person@example.com', password: 'calm-waters-1' }) },
      { name: 'password reset request', path: '/api/auth/request-password-reset', data: json({ email, redirectTo: '/reset-password' }) },
      { name: 'update user (signed in)', path: '/api/auth/update-user', data: json({ name: 'Scan User' }), signedIn: true },
      { name: 'practice summary (signed in)', path: '/api/practice?tz=Europe/London', signedIn: true },
      { name: 'record session (signed in)', path: '/api/sessions', data: json({ id: randomUUID(), meditationId, completedAt: new Date().toISOString() }), signedIn: true },
      { name: 'streak preference (signed in)', path: '/api/practice/preferences', method: 'PUT', data: json({ showStreaks: true }), signedIn: true },
      { name: 'favourite (signed in)', path: `/api/favourites/${meditationId}*`, method: 'PUT', signedIn: true },
      { name: 'billing checkout (signed in)', path: '/api/billing/checkout', data: json({ plan: 'monthly' }), signedIn: true },
      { name: 'billing cancel (signed in)', path: '/api/billing/cancel', data: json({ cancel: true }), signedIn: true, prepare: subscribe },
    ];

    for (const [i, target] of targets.entries()) {
      const t0 = Date.now();
      await target.prepare?.();
      const result = await runSqlmap(target, { base: origin, cookie, origin, outDir: join(work, 'sqlmap', String(i)) });
      results.push({ ...target, ...result, seconds: (Date.now() - t0) / 1000 });
      log(`${result.verdict === 'clean' ? 'ok  ' : 'FIND'} ${target.name} (${target.method ?? (target.data ? 'POST' : 'GET')} ${target.path}): ${result.verdict}, ${result.detail} [${((Date.now() - t0) / 1000).toFixed(0)}s]`);
      if (result.verdict !== 'clean') console.log(result.out.split('\n').slice(-25).join('\n'));
    }
  } finally {
    await stopServer();
    logStream.end();
  }
  fiveHundreds = serverErrors(serverLog);
  log(fiveHundreds.length ? `FIND the server answered ${fiveHundreds.length} 5xx during the scan` : 'ok   the server answered no 5xx during the scan');
  for (const entry of fiveHundreds.slice(0, 10)) console.log(`     ${entry.status} ${entry.req?.method ?? ''} ${entry.req?.route ?? entry.req?.url ?? ''} ${entry.message ?? ''}`);

  log('Running the attack suite: vitest on tests/integration and every *security* / *attack* test…');
  attack = spawnSync('npx', ['vitest', 'run', 'tests/integration', 'security', 'attack'], { cwd: ROOT, stdio: 'inherit', env: { FUZZ_RUNS: '20000', ...process.env } });
  log(attack.status === 0 ? 'ok   attack suite passed' : `FIND attack suite failed (exit ${attack.status})`);

  const injectable = results.filter((r) => r.verdict === 'injectable');
  const errored = results.filter((r) => r.verdict === 'error');
  console.log('\n==== Security scan summary ====');
  for (const r of results) console.log(`${r.verdict === 'clean' ? 'clean      ' : r.verdict === 'injectable' ? 'INJECTABLE ' : 'NO VERDICT '} ${r.name}  ${r.method ?? (r.data ? 'POST' : 'GET')} ${r.path}  (${r.seconds.toFixed(0)}s)`);
  console.log(`sqlmap: ${results.length} targets, ${injectable.length} injectable, ${errored.length} without a verdict`);
  console.log(`server 5xx during the scan: ${fiveHundreds.length}`);
  console.log(`attack suite: ${attack.status === 0 ? 'passed' : 'FAILED'}`);
  console.log(`runtime: ${((Date.now() - started) / 1000).toFixed(0)} s`);

  if (process.env.SCAN_KEEP) console.log(`kept ${work}`);
  else rmSync(work, { recursive: true, force: true });
  const findings = injectable.length + errored.length + fiveHundreds.length + (attack.status === 0 ? 0 : 1);
  console.log(findings ? `${findings} finding(s)` : 'No findings.');
  process.exit(findings ? 1 : 0);
}

main().catch((error) => {
  console.error(error);
  process.exit(2);
});
