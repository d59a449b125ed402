/**
 * Starts the app as its own process (exactly as `npm start` runs it, on a fresh DATA_DIR with the
 * demo catalogue) and stops it after the tests: the e2e journeys, the crash test and the cluster
 * test all run the real server this way.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { appendFileSync, cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cliCommand, SERVER_BUNDLE_ENV, TEST_NODE_FLAGS } from '#tests/setup/server-bundle.ts';

export type RunningServer = {
  url: string;
  port: number;
  dataDir: string;
  logs: () => string;
  stop(): Promise<void>;
  /** SIGKILL, as a crash would. */
  kill(): Promise<void>;
  /** How the process ended (null while it runs, or when a signal ended it). */
  exitCode(): number | null;
};

/** Loaded first into every server started here. */
const EXIT_WITH_PARENT = new URL('./exit-with-parent.mjs', import.meta.url).href;

/** The AUTH_SECRET a PostgreSQL run gets (production requires one with DATABASE_URL); a CLI on that database must use it too. */
export const SHARED_AUTH_SECRET = 'e2e-shared-auth-secret-0123456789abcdef';

/**
 * The ports the kernel hands out for outgoing connections (Linux's default where it cannot be read).
 * A port for a server that binds it seconds later is chosen below them: one from the kernel's own
 * pick (`listen(0)`) was taken meanwhile by an outgoing connection (a test's PostgreSQL client, the
 * browser), and the server died on EADDRINUSE (fresh run 46, reminders-processes.test.ts).
 */
export function ephemeralPorts(): { low: number; high: number } {
  try {
    const [low, high] = readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/).map(Number);
    if (low && high) return { low, high };
  } catch {
    // Not Linux: its default range.
  }
  return { low: 32768, high: 60999 };
}

/** Below the outgoing connections' ports, and above the well-known and registered services most machines run. */
const SERVER_PORTS = { low: 20_000, high: Math.min(ephemeralPorts().low, 65_536) - 1 };

function kernelPick(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

function listensOn(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/** A loopback port nothing listens on right now, and that no outgoing connection will be given. */
export async function freePort(): Promise<number> {
  // A machine whose outgoing ports start low leaves no room below them: the kernel's pick, as before.
  if (SERVER_PORTS.high - SERVER_PORTS.low < 1_000) return kernelPick();
  for (let tries = 0; tries < 200; tries += 1) {
    const port = SERVER_PORTS.low + Math.floor(Math.random() * (SERVER_PORTS.high - SERVER_PORTS.low + 1));
    if (await listensOn(port)) return port;
  }
  throw new Error(`no free port between ${SERVER_PORTS.low} and ${SERVER_PORTS.high}`);
}

/**
 * Polls `ready` until it answers true, for a child process that is starting; fails at once when the
 * process exits, and after `timeoutMs` with `describe()` (its output) in the message. Not
 * vi.waitFor: scripts/screenshots.ts starts the server outside vitest.
 */
export async function waitUntilReady(child: ChildProcess, ready: () => Promise<boolean>, { timeoutMs, intervalMs, name, describe }: { timeoutMs: number; intervalMs: number; name: string; describe: () => string }): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${name} exited early (${child.exitCode}):\n${describe()}`);
    if (await ready().catch(() => false)) return;
    if (Date.now() > deadline) throw new Error(`${name} did not start in time:\n${describe()}`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

/** Collects a child's stdout and stderr as text (and, when given, into `logFile` as it comes, for another process to read). */
export function captureOutput(child: ChildProcess, logFile?: string): () => string {
  let output = '';
  const append = (chunk: Buffer) => {
    output += chunk.toString();
    if (logFile) appendFileSync(logFile, chunk);
  };
  child.stdout?.on('data', append);
  child.stderr?.on('data', append);
  return () => output;
}

/** Runs an operator command (`npm run cli -- …`) against a DATA_DIR, before or between server runs. */
export function runCli(dataDir: string, args: string[]): string {
  const result = spawnSync(process.execPath, [...cliCommand(), ...args], {
    env: { ...process.env, NODE_ENV: 'production', BILLING_MODE: 'sandbox', DATA_DIR: dataDir, DATABASE_URL: '', LOG_LEVEL: 'silent' },
    encoding: 'utf8',
  });
  if (result.status !== 0) throw new Error(`cli ${args.join(' ')} failed: ${result.stderr}`);
  return result.stdout;
}

export function makeDataDir(): string {
  return mkdtempSync(join(tmpdir(), 'hm-e2e-'));
}

/**
 * A DATA_DIR as the first start leaves it (migrated, demo catalogue seeded), made once per e2e run
 * (tests/setup/e2e-global-setup.ts). A server given no DATA_DIR and no settings that change what a
 * first start does starts from a copy of it: initialising and migrating an embedded database costs
 * ~5 s of two cores, and the journeys start ~20 servers.
 */
export const SERVER_TEMPLATE_ENV = 'HM_TEST_SERVER_TEMPLATE';

function dataDirFromTemplate(env: Record<string, string>): string | undefined {
  const template = process.env[SERVER_TEMPLATE_ENV];
  if (!template || Object.keys(env).some((name) => name === 'DATABASE_URL' || name === 'SEED_DEMO')) return undefined;
  const dataDir = makeDataDir();
  cpSync(template, dataDir, { recursive: true });
  return dataDir;
}

/**
 * A DATA_DIR for a test that starts its own servers on it, as the first start leaves it: a copy of
 * the run's template when there is one (no migration at each start), else an empty folder.
 */
export function startedDataDir(): string {
  return dataDirFromTemplate({}) ?? makeDataDir();
}

/**
 * `preload`: modules the server process imports before its own code; for stand-ins at the edge that
 * the server is never configured to use (tests/fakes/fake-id-token-keys-preload.ts). `logFile`: where
 * the server's output also goes, for a server other processes use (the e2e workers' shared servers).
 */
export async function startServer(
  env: Record<string, string> = {},
  { dataDir = dataDirFromTemplate(env) ?? makeDataDir(), keepData = false, preload = [], logFile }: { dataDir?: string; keepData?: boolean; preload?: string[]; logFile?: string } = {},
): Promise<RunningServer> {
  const port = await freePort();
  // The test run's bundle of the server when there is one (tests/setup/server-bundle.ts), else the sources through tsx.
  const bundle = process.env[SERVER_BUNDLE_ENV];
  // tsx only where TypeScript is loaded: the sources, or a preload stand-in.
  const tsx = !bundle || preload.length > 0 ? ['--import', 'tsx'] : [];
  const child: ChildProcess = spawn(process.execPath, [...TEST_NODE_FLAGS, ...tsx, '--import', EXIT_WITH_PARENT, ...preload.flatMap((file) => ['--import', file]), bundle ?? 'src/server/main.ts'], {
    // Production config must name its billing mode: the journeys use the sandbox checkout. A PostgreSQL
    // run needs the shared AUTH_SECRET that production requires with DATABASE_URL.
    env: {
      ...process.env,
      NODE_ENV: 'production',
      BILLING_MODE: 'sandbox',
      HOST: '127.0.0.1',
      PORT: String(port),
      DATA_DIR: dataDir,
      LOG_LEVEL: 'info',
      // Load shedding off: two journeys, two browsers and a test runner share two cores, and a server
      // starved of CPU for a second would answer 503 to a journey that is not about load. Shedding has
      // its own tests (src/server/load-shedding.test.ts); a test that wants it sets this itself.
      MAX_EVENT_LOOP_DELAY_MS: '0',
      DATABASE_URL: '',
      ...(env.DATABASE_URL ? { AUTH_SECRET: SHARED_AUTH_SECRET } : {}),
      ...env,
    },
    // The IPC channel is how the server learns that this process is gone (exit-with-parent.mjs).
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  // Not a reason for this process to stay alive; when this process is gone the server sees the
  // channel close and stops (exit-with-parent.mjs).
  child.channel?.unref();
  const logs = captureOutput(child, logFile);
  const url = `http://127.0.0.1:${port}`;
  // Health answers once the app is built; "listening" in the log once it accepts connections for real.
  try {
    await waitUntilReady(child, async () => (await fetch(`${url}/api/health`)).ok && logs().includes('listening'), { timeoutMs: 90_000, intervalMs: 200, name: 'Server', describe: logs });
  } catch (error) {
    // A server that never came up is nobody's to stop: it would hold its DATA_DIR and a core until the run ends.
    child.kill('SIGKILL');
    throw error;
  }

  return {
    url,
    port,
    dataDir,
    logs,
    exitCode: () => child.exitCode,
    kill() {
      child.kill('SIGKILL');
      return new Promise<void>((resolve) => (child.exitCode !== null || child.signalCode ? resolve() : child.once('exit', () => resolve())));
    },
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await exited;
      }
      if (!keepData) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
