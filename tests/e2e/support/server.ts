/**
 * Starts the built app as its own process (exactly as `npm start` runs it, on a fresh DATA_DIR
 * with the demo catalogue) and stops it after the tests.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export type RunningServer = { url: string; port: number; dataDir: string; logs: () => string; stop(): Promise<void>; /** SIGKILL, as a crash would. */ kill(): Promise<void> };

async function freePort(): Promise<number> {
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

/** Runs an operator command (`npm run cli -- …`) against a DATA_DIR, before or between server runs. */
export function runCli(dataDir: string, args: string[]): string {
  const result = spawnSync(process.execPath, ['--import', 'tsx', 'src/server/cli.ts', ...args], {
    env: { ...process.env, NODE_ENV: 'production', BILLING_MODE: 'sandbox', DATA_DIR: dataDir, DATABASE_URL: '', LOG_LEVEL: 'silent' },
    encoding: 'utf8',
  });
  if (result.status !== 0) throw new Error(`cli ${args.join(' ')} failed: ${result.stderr}`);
  return result.stdout;
}

export function makeDataDir(): string {
  return mkdtempSync(join(tmpdir(), 'hm-e2e-'));
}

export async function startServer(env: Record<string, string> = {}, { dataDir = makeDataDir(), keepData = false }: { dataDir?: string; keepData?: boolean } = {}): Promise<RunningServer> {
  const port = await freePort();
  let output = '';
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
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
      DATABASE_URL: '',
      ...(env.DATABASE_URL ? { AUTH_SECRET: 'e2e-shared-auth-secret-0123456789abcdef' } : {}),
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (chunk) => (output += chunk));
  child.stderr?.on('data', (chunk) => (output += chunk));
  const url = `http://127.0.0.1:${port}`;

  const deadline = Date.now() + 90_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`Server exited early (${child.exitCode}):\n${output}`);
    try {
      const res = await fetch(`${url}/api/health`);
      if (res.ok && output.includes('listening')) break;
    } catch {
      // not up yet
    }
    if (Date.now() > deadline) throw new Error(`Server did not start in time:\n${output}`);
    await new Promise((r) => setTimeout(r, 200));
  }

  return {
    url,
    port,
    dataDir,
    logs: () => output,
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
