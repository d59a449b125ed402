import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createConnection } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { chooseSocketPath, sendControlRequest } from '#server/features/operations/control-channel.ts';
import { acquireDataDirLock, DataDirBusyError, holderIsAlive, LOCK_FILE, readLockHolder, type LockHolder } from '#server/features/operations/data-dir-lock.ts';
import { holdDataDir } from '#server/features/operations/hold-data-dir.ts';

const root = mkdtempSync(join(tmpdir(), 'hm-lock-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let folders = 0;
const freshDir = () => {
  const dir = join(root, `d${++folders}`);
  mkdirSync(dir, { mode: 0o700 });
  return dir;
};
const silentLog = { error: () => {} };
const writeLock = (dataDir: string, holder: Partial<LockHolder>) =>
  writeFileSync(join(dataDir, LOCK_FILE), JSON.stringify({ role: 'server', token: 'earlier', startedAt: '2026-01-01T00:00:00.000Z', ...holder }));

/** The pid of a process that has exited (a crashed server's, as far as a lock file knows). */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  return Number(child.stdout);
}

describe('the DATA_DIR lock', () => {
  it('lets one holder in, names it to the next, and is free again after release', async () => {
    const dataDir = freshDir();
    const lock = await acquireDataDirLock({ dataDir, role: 'cli' });
    expect(readLockHolder(dataDir)).toMatchObject({ pid: process.pid, role: 'cli' });
    expect(statSync(join(dataDir, LOCK_FILE)).mode & 0o077).toBe(0);
    const refused = await acquireDataDirLock({ dataDir, role: 'server' }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(DataDirBusyError);
    expect((refused as Error).message).toContain(`DATA_DIR ${dataDir} is in use by a CLI command (pid ${process.pid})`);
    lock.release();
    expect(readLockHolder(dataDir)).toBeUndefined();
    const again = await acquireDataDirLock({ dataDir, role: 'server' });
    expect(again.tookOverFrom).toBeUndefined();
    again.release();
  });

  it('takes over the lock of a process that was killed', async () => {
    const dataDir = freshDir();
    const pid = deadPid();
    writeLock(dataDir, { pid, socket: join(dataDir, 'control.sock') });
    const lock = await acquireDataDirLock({ dataDir, role: 'server' });
    expect(lock.tookOverFrom).toMatchObject({ pid });
    expect(readLockHolder(dataDir)?.pid).toBe(process.pid);
    lock.release();
  });

  it('takes over a lock with its own pid from an earlier life (containers restart as pid 1)', async () => {
    const dataDir = freshDir();
    writeLock(dataDir, { pid: process.pid });
    const lock = await acquireDataDirLock({ dataDir, role: 'server' });
    expect(lock.tookOverFrom?.token).toBe('earlier');
    lock.release();
  });

  it('does not count a reused pid that runs something else as a live server', async () => {
    const other = spawn('sleep', ['30']);
    try {
      const holder: LockHolder = { pid: other.pid!, role: 'server', token: 'x', socket: join(freshDir(), 'control.sock'), startedAt: '' };
      expect(await holderIsAlive(holder, { waitMs: 300 })).toBe(false);
    } finally {
      other.kill();
    }
  });
});

describe('the control channel', () => {
  it('answers ping at once and runs commands once the server is ready, on a 0600 socket', async () => {
    const dataDir = freshDir();
    let ready: () => void = () => {};
    const prepared = new Promise<void>((resolve) => (ready = resolve));
    const seen: string[][] = [];
    const hold = await holdDataDir({
      dataDir,
      log: silentLog,
      run: async (argv) => {
        await prepared;
        seen.push(argv);
        return { exitCode: argv[0] === 'fail' ? 1 : 0, output: `ran ${argv.join(' ')}` };
      },
    });
    try {
      expect(hold.socket).toBe(join(dataDir, 'control.sock'));
      expect(statSync(hold.socket).mode & 0o777).toBe(0o600);
      expect(await sendControlRequest(hold.socket, { command: 'ping' })).toEqual({ ok: true, pid: process.pid });
      const pending = sendControlRequest(hold.socket, { command: 'run', argv: ['grant-role', 'a@example.com', 'admin'] });
      ready();
      expect(await pending).toEqual({ exitCode: 0, output: 'ran grant-role a@example.com admin' });
      expect(await sendControlRequest(hold.socket, { command: 'run', argv: ['fail'] })).toEqual({ exitCode: 1, output: 'ran fail' });
      const raw = await new Promise<string>((resolve) => {
        const socket = createConnection(hold.socket, () => socket.end('{"command":"run","argv":[1]}\n'));
        let text = '';
        socket.on('data', (chunk: Buffer) => (text += chunk.toString()));
        socket.on('close', () => resolve(text));
      });
      expect(JSON.parse(raw)).toEqual({ exitCode: 1, output: 'Unknown request' });
      expect(seen).toEqual([['grant-role', 'a@example.com', 'admin'], ['fail']]);
    } finally {
      await hold.release();
    }
    expect(() => statSync(hold.socket)).toThrow();
    expect(readLockHolder(dataDir)).toBeUndefined();
  });

  it('refuses a second server while the first answers', async () => {
    const dataDir = freshDir();
    const first = await holdDataDir({ dataDir, log: silentLog, run: () => Promise.resolve({ exitCode: 0, output: '' }) });
    try {
      await expect(holdDataDir({ dataDir, log: silentLog, run: () => Promise.resolve({ exitCode: 0, output: '' }) })).rejects.toThrow(
        `DATA_DIR ${dataDir} is in use by a running Harbour Mind server (pid ${process.pid})`,
      );
      expect(await sendControlRequest(first.socket, { command: 'ping' })).toMatchObject({ ok: true });
    } finally {
      await first.release();
    }
  });

  it('moves the socket to a private temp folder when DATA_DIR is too long for a Unix socket path', async () => {
    const dataDir = join(freshDir(), 'x'.repeat(120));
    mkdirSync(dataDir, { recursive: true });
    expect(chooseSocketPath(join(root, 'short')).path).toBe(join(root, 'short', 'control.sock'));
    const hold = await holdDataDir({ dataDir, log: silentLog, run: () => Promise.resolve({ exitCode: 0, output: 'ok' }) });
    try {
      expect(hold.socket.startsWith(tmpdir())).toBe(true);
      expect(Buffer.byteLength(hold.socket)).toBeLessThan(104);
      expect(JSON.parse(readFileSync(join(dataDir, LOCK_FILE), 'utf8')).socket).toBe(hold.socket);
      expect(statSync(join(hold.socket, '..')).mode & 0o077).toBe(0);
      expect(await sendControlRequest(hold.socket, { command: 'run', argv: [] })).toEqual({ exitCode: 0, output: 'ok' });
    } finally {
      await hold.release();
    }
    expect(() => statSync(join(hold.socket, '..'))).toThrow();
  });
});
