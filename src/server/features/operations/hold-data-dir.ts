/**
 * What the server does to own DATA_DIR on the embedded database: take the folder's lock naming its
 * control socket, and answer on that socket at once (a second process probing the lock must find a
 * live server even while this one is still migrating).
 */
import { rmSync } from 'node:fs';
import { chooseSocketPath, listenControlChannel, type CommandResult } from '#server/features/operations/control-channel.ts';
import { acquireDataDirLock, type DataDirLock } from '#server/features/operations/data-dir-lock.ts';

export type DataDirHold = { lock: DataDirLock; socket: string; release(): Promise<void> };

/** Throws DataDirBusyError when another live process holds the folder. */
export async function holdDataDir({
  dataDir,
  run,
  log,
}: {
  dataDir: string;
  run: (argv: string[]) => Promise<CommandResult>;
  log: { error(details: object, message: string): void };
}): Promise<DataDirHold> {
  const socket = chooseSocketPath(dataDir);
  let lock: DataDirLock;
  try {
    lock = await acquireDataDirLock({ dataDir, role: 'server', socket: socket.path });
  } catch (error) {
    if (socket.tempDir) rmSync(socket.tempDir, { recursive: true, force: true });
    throw error;
  }
  try {
    const channel = await listenControlChannel({ ...socket, run, log });
    return {
      lock,
      socket: socket.path,
      release: async () => {
        await channel.close();
        rmSync(socket.path, { force: true });
        lock.release();
      },
    };
  } catch (error) {
    lock.release();
    throw error;
  }
}
