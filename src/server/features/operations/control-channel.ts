/**
 * The local control channel: a Unix socket through which the CLI asks the server that holds DATA_DIR
 * to run an operator command on its own database (PGlite is single-process: a second process would
 * work on a copy the server never sees; STACK-NOTES "Found on the first build").
 *
 * Protocol: one connection = one request line of JSON, one response line of JSON, then close.
 *   request  {"command":"ping"} | {"command":"run","argv":["grant-role","a@b.c","admin"]}
 *   response {"ok":true,"pid":123} | {"exitCode":0,"output":"…"}
 *
 * Who may connect: the socket is 0600 inside DATA_DIR (0700), so only the OS user that runs the
 * server. Node exposes no SO_PEERCRED, so the file modes are the whole check (docs in the README).
 * No TCP listener exists, so nothing off the machine can reach it.
 */
import { createHash } from 'node:crypto';
import { chmodSync, existsSync, mkdtempSync, rmSync, unlinkSync } from 'node:fs';
import { createConnection, createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';

/** sun_path holds 108 bytes on Linux and 104 on macOS, including the terminating NUL. */
const MAX_SOCKET_PATH_BYTES = 103;
/** A request is a command line: anything longer is not one of ours. */
const MAX_REQUEST_BYTES = 64 * 1024;

/** Only the socket's owner can connect, but a request is still a line of text to check before acting on. */
const requestSchema = z.discriminatedUnion('command', [
  z.object({ command: z.literal('ping') }),
  z.object({ command: z.literal('run'), argv: z.array(z.string()) }),
]);
export type ControlRequest = z.infer<typeof requestSchema>;
export type CommandResult = { exitCode: number; output: string };
export type PingResult = { ok: true; pid: number };

/**
 * Where the socket of a DATA_DIR lives: DATA_DIR/control.sock, or, when that path is too long for a
 * Unix socket, a fresh private folder under the OS temp dir (recorded in the lock file, so the CLI
 * finds it). The temp folder is made with mkdtemp (0700, unguessable) so no one can squat the name.
 */
export function chooseSocketPath(dataDir: string): { path: string; tempDir?: string } {
  const inDataDir = join(dataDir, 'control.sock');
  if (Buffer.byteLength(inDataDir) <= MAX_SOCKET_PATH_BYTES) return { path: inDataDir };
  const tag = createHash('sha256').update(dataDir).digest('hex').slice(0, 8);
  const tempDir = mkdtempSync(join(tmpdir(), `hm-${tag}-`));
  return { path: join(tempDir, 'control.sock'), tempDir };
}

export type ControlServer = { path: string; close(): Promise<void> };

/**
 * Listens on `path` (removing a socket file left by a killed server first) and answers each request
 * with `run`. Ping is answered at once, even while the database is still being prepared: it is how a
 * second process tells a live server from a stale lock.
 */
export async function listenControlChannel({
  path,
  tempDir,
  run,
  log,
}: {
  path: string;
  tempDir?: string;
  run: (argv: string[]) => Promise<CommandResult>;
  log: { error(details: object, message: string): void };
}): Promise<ControlServer> {
  // Only reached while holding the DATA_DIR lock: a socket file here belongs to a dead server.
  if (existsSync(path)) unlinkSync(path);
  const server: Server = createServer((socket) => {
    let buffered = '';
    socket.setEncoding('utf8');
    socket.on('error', (error) => log.error({ err: error }, 'control channel connection failed'));
    socket.on('data', (chunk: string) => {
      buffered += chunk;
      if (Buffer.byteLength(buffered) > MAX_REQUEST_BYTES) {
        socket.end(`${JSON.stringify({ exitCode: 1, output: 'Request too large' })}\n`);
        return;
      }
      const newline = buffered.indexOf('\n');
      if (newline === -1) return;
      socket.pause();
      void answer(buffered.slice(0, newline)).then((response) => socket.end(`${JSON.stringify(response)}\n`));
    });
  });
  const answer = async (line: string): Promise<CommandResult | PingResult> => {
    let json: unknown;
    try {
      json = JSON.parse(line);
    } catch {
      return { exitCode: 1, output: 'Malformed request' };
    }
    const parsed = requestSchema.safeParse(json);
    if (!parsed.success) return { exitCode: 1, output: 'Unknown request' };
    const request = parsed.data;
    if (request.command === 'ping') return { ok: true, pid: process.pid };
    try {
      return await run(request.argv);
    } catch (error) {
      log.error({ err: error }, 'control channel command failed');
      return { exitCode: 1, output: (error as Error).message };
    }
  };
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(path, () => {
      server.off('error', reject);
      resolve();
    });
  });
  // The process umask (077) already made it 0700-ish; say it explicitly whatever the umask was.
  chmodSync(path, 0o600);
  return {
    path,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => {
          if (tempDir) rmSync(tempDir, { recursive: true, force: true });
          resolve();
        });
      }),
  };
}

/**
 * Sends one request and waits for its one response; rejects when nothing answers in `timeoutMs`.
 * A ping's answer is typed Partial: whatever listens on the path answered it, so callers check it.
 */
export function sendControlRequest(path: string, request: { command: 'ping' }, timeoutMs?: number): Promise<Partial<PingResult>>;
export function sendControlRequest(path: string, request: { command: 'run'; argv: string[] }, timeoutMs?: number): Promise<CommandResult>;
export function sendControlRequest(path: string, request: ControlRequest, timeoutMs = 0): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const socket = createConnection(path);
    let received = '';
    socket.setEncoding('utf8');
    if (timeoutMs > 0) {
      socket.setTimeout(timeoutMs, () => socket.destroy(new Error(`No answer on ${path} within ${timeoutMs} ms`)));
    }
    socket.on('connect', () => socket.write(`${JSON.stringify(request)}\n`));
    socket.on('data', (chunk: string) => (received += chunk));
    socket.on('error', reject);
    socket.on('end', () => {
      try {
        resolve(JSON.parse(received));
      } catch {
        reject(new Error(`Unreadable answer on ${path}`));
      }
    });
  });
}

/** True when a Harbour Mind server with this pid answers on `path`. */
export async function pingControlChannel(path: string, pid: number, timeoutMs = 2000): Promise<boolean> {
  try {
    const answer = await sendControlRequest(path, { command: 'ping' }, timeoutMs);
    return answer.ok === true && answer.pid === pid;
  } catch {
    return false;
  }
}
