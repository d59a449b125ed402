/**
 * Graceful shutdown (issue 13, item 6). In process: what a draining server answers on each kind of
 * connection. Then the real server as its own process (exactly as `npm start` runs it) receiving
 * SIGTERM in the middle of an admin upload: the upload finishes and is acknowledged while new
 * connections are refused; with a short SHUTDOWN_GRACE_SECONDS an upload that outlasts it is cut
 * and the process exits within the bound plus a little.
 */
import { randomUUID } from 'node:crypto';
import { request } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { join } from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { ERROR_TEXT } from '#shared/error-text.ts';
import { installErrorHandler } from '#server/errors.ts';
import { closeGracefully, registerShutdownRefusal } from '#server/shutdown.ts';
import { makeDataDir, startServer, type RunningServer } from '#tests/setup/server-process.ts';
import { filesUnder, largeMp3, multipartParts, runCommandsBeforeStart, type Answer } from '#tests/integration/crash-support.ts';
import { signInAt } from '#tests/setup/auth-helpers.ts';

/** Whether a new TCP connection to the port is accepted. */
function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** A raw connection that collects everything the server sends, and says when the server closed it. */
function rawConnection(port: number): Promise<{ socket: Socket; received: () => string; closed: Promise<void> }> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port });
    let text = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (text += chunk));
    const closed = new Promise<void>((done) => socket.once('close', () => done()));
    socket.once('error', () => {});
    socket.once('connect', () => resolve({ socket, received: () => text, closed }));
    socket.once('error', reject);
  });
}

/** Connections the server has accepted and not yet closed. */
function openConnections(app: FastifyInstance): Promise<number> {
  return new Promise((resolve, reject) => app.server.getConnections((error, count) => (error ? reject(error) : resolve(count))));
}

describe('a draining server (in process)', () => {
  let app: FastifyInstance | undefined;
  afterEach(async () => {
    await app?.close().catch(() => {});
    app = undefined;
  });

  /** `slowStarted` settles once a /slow request is inside its handler (so its connection is busy). */
  async function slowApp(): Promise<{ port: number; release: () => void; slowStarted: Promise<void> }> {
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    let started: () => void = () => {};
    const slowStarted = new Promise<void>((resolve) => (started = resolve));
    app = Fastify({ return503OnClosing: false });
    installErrorHandler(app);
    registerShutdownRefusal(app);
    app.get('/slow', async () => {
      started();
      await gate;
      return { finished: true };
    });
    app.get('/fast', () => ({ fast: true }));
    await app.listen({ port: 0, host: '127.0.0.1' });
    return { port: (app.server.address() as AddressInfo).port, release, slowStarted };
  }

  it('refuses new connections, answers a request that still arrives with 503 in the app shape, and lets the one in flight finish', async () => {
    const { port, release, slowStarted } = await slowApp();
    const inFlight = await rawConnection(port);
    inFlight.socket.write('GET /slow HTTP/1.1\r\nHost: hm\r\n\r\n');
    await slowStarted;
    // Headers half sent: the connection is busy, so closing does not drop it; the request completes after.
    const late = await rawConnection(port);
    late.socket.write('GET /fast HTTP/1.1\r\nHost: hm\r\n');
    await expect.poll(() => openConnections(app!)).toBe(2);

    const closing = closeGracefully(app!, { graceMs: 10_000 });
    await expect.poll(() => accepts(port), { timeout: 2000, interval: 20 }).toBe(false);

    late.socket.write('\r\n');
    await late.closed;
    const refused = late.received();
    expect(refused).toMatch(/^HTTP\/1\.1 503 /);
    expect(refused).toMatch(/\r\nconnection: close\r\n/i);
    expect(refused).toMatch(/\r\nretry-after: 5\r\n/i);
    expect(JSON.parse(refused.slice(refused.indexOf('\r\n\r\n') + 4))).toEqual({ error: { code: 'server/unavailable', message: ERROR_TEXT['server/unavailable'] } });

    release();
    await inFlight.closed;
    expect(inFlight.received()).toMatch(/^HTTP\/1\.1 200 /);
    expect(inFlight.received()).toMatch(/\r\nconnection: close\r\n/i);
    expect(inFlight.received()).toContain('{"finished":true}');
    expect(await closing).toMatchObject({ drained: true });
  });

  it('closes idle keep-alive connections at once and ends a busy one with its answer, so draining lasts as long as the slowest request', async () => {
    const { port, release, slowStarted } = await slowApp();
    const idle = await rawConnection(port);
    idle.socket.write('GET /fast HTTP/1.1\r\nHost: hm\r\n\r\n');
    await expect.poll(() => idle.received()).toContain('{"fast":true}');
    const busy = await rawConnection(port);
    busy.socket.write('GET /slow HTTP/1.1\r\nHost: hm\r\n\r\n');
    await slowStarted;
    const closing = closeGracefully(app!, { graceMs: 10_000 });
    await idle.closed;
    release();
    const started = Date.now();
    expect(await closing).toMatchObject({ drained: true });
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it('cuts a request that outlasts the bound, then resolves', async () => {
    const { port, slowStarted } = await slowApp();
    const stuck = await rawConnection(port);
    stuck.socket.write('GET /slow HTTP/1.1\r\nHost: hm\r\n\r\n');
    await slowStarted;
    const started = Date.now();
    const outcome = await closeGracefully(app!, { graceMs: 300 });
    expect(outcome.drained).toBe(false);
    expect(Date.now() - started).toBeGreaterThanOrEqual(290);
    expect(Date.now() - started).toBeLessThan(1500);
    await stuck.closed;
    expect(stuck.received()).toBe('');
  });
});

const ADMIN = { email: 'drain-admin@example.com', password: 'harbour-drain-1' };
const UPLOAD = largeMp3(1024 * 1024);

/** A multipart upload whose body is sent in two halves: the second when `finish()` is called. */
function startUpload(server: RunningServer, cookie: string, title: string): { finish: () => void; answer: Promise<Answer | Error> } {
  const boundary = `hm-drain-${randomUUID()}`;
  const { head, tail } = multipartParts(boundary, { title, categories: 'sleeping', description: 'Uploaded while the server was stopping.' }, { name: 'drain.mp3', type: 'audio/mpeg' });
  const req = request(`${server.url}/api/admin/meditations`, {
    method: 'POST',
    headers: { cookie, origin: server.url, 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': head.length + UPLOAD.length + tail.length },
  });
  const answer = new Promise<Answer | Error>((resolve) => {
    req.on('error', resolve);
    req.on('response', (res) => {
      let text = '';
      res.on('data', (chunk: Buffer) => (text += chunk.toString()));
      res.on('error', resolve);
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: { text, connection: res.headers.connection } }));
    });
  });
  req.write(head);
  req.write(UPLOAD.subarray(0, UPLOAD.length / 2));
  return { finish: () => req.end(Buffer.concat([UPLOAD.subarray(UPLOAD.length / 2), tail])), answer };
}

/** The admin account, made by the CLI before the first start, and the server on a folder of its own. */
async function serverWithAdmin(graceSeconds: number): Promise<{ server: RunningServer; cookie: string; dataDir: string; exited: () => Promise<number> }> {
  const dataDir = makeDataDir();
  await runCommandsBeforeStart(dataDir, { BILLING_MODE: 'sandbox' }, [
    ['create-user', ADMIN.email, ADMIN.password, '--name', 'Drain Admin', '--verified'],
    ['grant-role', ADMIN.email, 'admin'],
  ]);
  const server = await startServer({ SEED_DEMO: 'false', SHUTDOWN_GRACE_SECONDS: String(graceSeconds) }, { dataDir });
  const cookie = await signInAt(server.url, ADMIN.email, ADMIN.password);
  // stop() sends SIGTERM at once and resolves when the process has exited.
  return { server, cookie, dataDir, exited: async () => (await server.stop(), Date.now()) };
}

/** A server with an upload in its handler, half the file on disk: the moment the tests send the signal. */
async function uploadInFlight(graceSeconds: number, title: string) {
  const { server, cookie, dataDir, exited } = await serverWithAdmin(graceSeconds);
  const upload = startUpload(server, cookie, title);
  await expect.poll(() => filesUnder(join(dataDir, 'uploads')).some((n) => n.endsWith('.part')), { timeout: 10_000, interval: 20 }).toBe(true);
  return { server, upload, exited };
}

describe('SIGTERM to the real server process', () => {
  it('finishes an upload in flight and acknowledges it, while new connections are refused', { timeout: 90_000 }, async () => {
    const GRACE_S = 20;
    const { server, upload, exited } = await uploadInFlight(GRACE_S, 'Finished while stopping');
    const signalled = Date.now();
    const stopped = exited();
    await expect.poll(() => accepts(server.port), { timeout: 10_000, interval: 20 }).toBe(false);

    upload.finish();
    const answer = await upload.answer;
    expect(answer, server.logs()).not.toBeInstanceOf(Error);
    expect((answer as Answer).status, server.logs()).toBe(201);
    expect(((answer as Answer).body as { connection?: string }).connection).toBe('close');
    // Draining lasts as long as the upload: the process is gone long before its grace period would
    // have ended (a bound of 5 s after the answer failed on a loaded machine; the grace is the claim).
    expect((await stopped) - signalled).toBeLessThan(GRACE_S * 1000);
    expect(server.logs()).not.toContain('grace period over');
  });

  it('cuts an upload that outlasts SHUTDOWN_GRACE_SECONDS and exits within the bound plus a little', { timeout: 90_000 }, async () => {
    const GRACE_S = 2;
    const { server, upload, exited } = await uploadInFlight(GRACE_S, 'Never finished');
    const signalled = Date.now();
    const exitedAt = await exited();
    // Not before the bound; and the graceful cut, not the hard exit 5 s after it (that one exits with 1).
    // Said by the exit code, not by a clock: a bound of 2.5 s after the grace failed on a loaded machine (4.5 s).
    expect(exitedAt - signalled).toBeGreaterThanOrEqual(GRACE_S * 1000 - 100);
    expect(server.exitCode(), server.logs()).toBe(0);
    expect(await upload.answer).toBeInstanceOf(Error);
    expect(server.logs()).toContain('grace period over');
  });
});
