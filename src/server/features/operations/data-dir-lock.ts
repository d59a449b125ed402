/**
 * One writer per data folder. PGlite is single-process: a second process opening DATA_DIR/pglite
 * works on its own copy, never sees the server's writes and can overwrite its files at checkpoint.
 * The server (and the CLI when it opens the database itself) holds DATA_DIR/server.lock, which
 * names its pid and, for a server, the control socket that proves it is alive and ours.
 *
 * A lock left by a killed process is stale: its pid is gone (or, after a pid was reused, nothing of
 * ours answers on its socket); the next start takes it over and says so.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, linkSync, readFileSync, rmSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pingControlChannel } from '#server/features/operations/control-channel.ts';

export const LOCK_FILE = 'server.lock';

export type LockHolder = {
  pid: number;
  role: 'server' | 'cli';
  /** Random per acquisition: tells this life of a pid from an earlier one (containers reuse pid 1). */
  token: string;
  /** The control socket of a server (absent for the CLI, which serves no one). */
  socket?: string;
  startedAt: string;
};

export type DataDirLock = {
  path: string;
  holder: LockHolder;
  /** The stale holder this acquisition replaced, for the log. */
  tookOverFrom: LockHolder | undefined;
  release(): void;
};

export class DataDirBusyError extends Error {
  constructor(
    readonly dataDir: string,
    readonly holder: LockHolder,
  ) {
    super(
      holder.role === 'server'
        ? `DATA_DIR ${dataDir} is in use by a running Harbour Mind server (pid ${holder.pid}). Only one server may use a data folder: stop that one first, or give this one its own DATA_DIR (several processes can share a PostgreSQL DATABASE_URL instead).`
        : `DATA_DIR ${dataDir} is in use by a CLI command (pid ${holder.pid}). Try again when it has finished.`,
    );
  }
}

/** Tokens of the locks this process holds right now. */
const heldTokens = new Set<string>();

export function readLockHolder(dataDir: string): LockHolder | undefined {
  try {
    const holder = JSON.parse(readFileSync(join(dataDir, LOCK_FILE), 'utf8')) as LockHolder;
    return Number.isInteger(holder.pid) && typeof holder.token === 'string' ? holder : undefined;
  } catch {
    return undefined;
  }
}

/** Whether a process with this pid runs (EPERM: it runs, as another user). */
export function pidRuns(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it runs, as another user. Not ours to judge stale.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Linux only: whether the process looks like a Node process (where /proc is unreadable: assume so). */
function looksLikeNode(pid: number): boolean {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('node');
  } catch (error) {
    return (error as NodeJS.ErrnoException).code !== 'ENOENT';
  }
}

/**
 * Whether the holder still holds the folder. A server must answer on its socket (retried for a few
 * seconds: a busy start-up can keep its event loop away from the socket for a moment); one that
 * stays silent counts as alive only while its pid still runs Node, so a pid reused by an unrelated
 * program after a crash or reboot does not keep the folder locked forever.
 */
export async function holderIsAlive(holder: LockHolder, { waitMs = 5000 } = {}): Promise<boolean> {
  if (holder.pid === process.pid) return heldTokens.has(holder.token);
  if (!pidRuns(holder.pid)) return false;
  if (holder.role === 'server' && holder.socket) {
    const deadline = Date.now() + waitMs;
    do {
      if (await pingControlChannel(holder.socket, holder.pid, 1000)) return true;
      if (!pidRuns(holder.pid)) return false;
      await new Promise((r) => setTimeout(r, 250));
    } while (Date.now() < deadline);
  }
  return looksLikeNode(holder.pid);
}

/**
 * Takes DATA_DIR's lock or throws DataDirBusyError naming the holder. The lock file appears with
 * its content in one step (written aside, then hard-linked: link fails if the name exists), so
 * nobody ever reads a half-written lock. Released by release(), or at the latest when the process exits.
 */
export async function acquireDataDirLock({ dataDir, role, socket }: { dataDir: string; role: LockHolder['role']; socket?: string }): Promise<DataDirLock> {
  const path = join(dataDir, LOCK_FILE);
  const holder: LockHolder = { pid: process.pid, role, token: randomBytes(12).toString('hex'), socket, startedAt: new Date().toISOString() };
  let tookOverFrom: LockHolder | undefined;
  for (let attempt = 0; attempt < 20; attempt++) {
    const aside = `${path}.${holder.token}`;
    writeFileSync(aside, `${JSON.stringify(holder)}\n`, { mode: 0o600 });
    try {
      linkSync(aside, path);
      heldTokens.add(holder.token);
      const releaseAtExit = () => release();
      const release = () => {
        process.off('exit', releaseAtExit);
        if (!heldTokens.delete(holder.token)) return;
        if (readLockHolder(dataDir)?.token === holder.token) unlinkSync(path);
      };
      process.on('exit', releaseAtExit);
      return { path, holder, tookOverFrom, release };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    } finally {
      unlinkSync(aside);
    }
    const current = readLockHolder(dataDir);
    if (!current) {
      if (!existsSync(path)) continue; // released meanwhile: try again
      // Unreadable: not written by this code. Give it a moment (and a few attempts), then it is stale.
      if (attempt < 3) {
        await new Promise((r) => setTimeout(r, 100));
        continue;
      }
    } else if (await holderIsAlive(current)) {
      throw new DataDirBusyError(dataDir, current);
    }
    if (await removeStaleLock(dataDir, current)) tookOverFrom = current;
  }
  throw new Error(`Could not take the lock ${path}: another process keeps replacing it`);
}

/**
 * Removes a stale lock, guarded by a short-lived claim file so that two processes that both found it
 * stale cannot remove each other's new lock. Returns whether this process removed it.
 */
async function removeStaleLock(dataDir: string, stale: LockHolder | undefined): Promise<boolean> {
  const claim = join(dataDir, `${LOCK_FILE}.takeover`);
  try {
    writeFileSync(claim, String(process.pid), { flag: 'wx', mode: 0o600 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    // Someone else is taking over; a claim older than 10 s was left by a process killed meanwhile.
    const claimedAt = statSync(claim, { throwIfNoEntry: false })?.mtimeMs;
    if (claimedAt !== undefined && Date.now() - claimedAt > 10_000) rmSync(claim, { force: true });
    else await new Promise((r) => setTimeout(r, 100));
    return false;
  }
  try {
    const current = readLockHolder(dataDir);
    if (current?.token !== stale?.token) return false;
    rmSync(join(dataDir, LOCK_FILE), { force: true });
    return true;
  } finally {
    rmSync(claim, { force: true });
  }
}

/** The log line for a takeover. */
export function describeTakeover(dataDir: string, stale: LockHolder): string {
  return `Took over a stale lock on DATA_DIR ${dataDir}, left by ${stale.role} pid ${stale.pid} (started ${stale.startedAt}), which is no longer running`;
}
