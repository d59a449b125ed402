/**
 * Slow clients over raw sockets (security issue 12, item 10): a body or header that never finishes
 * must not hold a connection open. Ordinary requests get REQUEST_TIMEOUT_SECONDS for headers and
 * body; the meditation upload gets UPLOAD_TIMEOUT_SECONDS. Here they are 1 s and 4 s.
 */
import { readFileSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSignedInStaff } from '#tests/setup/auth-helpers.ts';
import { createTestApp, type TestApp } from '#tests/setup/test-app.ts';

const REQUEST_LIMIT_MS = 1000;
const UPLOAD_LIMIT_MS = 4000;
/** Node checks header and request deadlines on an interval; the slack covers it and a busy CI box. */
const SLACK_MS = 1500;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('connection limits for slow clients', () => {
  let t: TestApp;
  let port: number;
  let cookie: string;

  beforeAll(async () => {
    t = await createTestApp({ env: { REQUEST_TIMEOUT_SECONDS: String(REQUEST_LIMIT_MS / 1000), UPLOAD_TIMEOUT_SECONDS: String(UPLOAD_LIMIT_MS / 1000) } });
    const admin = await createSignedInStaff(t, 'slow-uploader@example.com', 'admin');
    cookie = admin.cookie;
    port = Number(new URL(await t.app.listen({ port: 0, host: '127.0.0.1' })).port);
  });
  afterAll(() => t.close());

  type Outcome = { closedAfterMs: number; response: string };

  /** Opens a raw connection; `outcome` settles when the server closes it, or after `giveUpMs`. */
  function open(giveUpMs: number): { socket: Socket; ready: Promise<void>; outcome: Promise<Outcome> } {
    const socket = connect({ host: '127.0.0.1', port });
    const started = Date.now();
    let response = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (response += chunk));
    socket.on('error', () => {}); // a reset is one way of being closed
    const ready = new Promise<void>((resolve) => socket.once('connect', () => resolve()));
    const outcome = new Promise<Outcome>((resolve) => {
      const giveUp = setTimeout(() => {
        socket.destroy();
        resolve({ closedAfterMs: Infinity, response });
      }, giveUpMs);
      socket.once('close', () => {
        clearTimeout(giveUp);
        resolve({ closedAfterMs: Date.now() - started, response });
      });
    });
    return { socket, ready, outcome };
  }

  /** Writes `chunks` one by one, `everyMs` apart, until done or the server has closed the socket. */
  async function trickle(socket: Socket, chunks: (string | Uint8Array)[], everyMs: number) {
    for (const chunk of chunks) {
      if (socket.destroyed || socket.writableEnded) return;
      socket.write(chunk);
      await sleep(everyMs);
    }
  }

  const jsonHead = (length: number) =>
    `POST /api/waitlist HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nOrigin: ${t.config.publicUrl}\r\nContent-Type: application/json\r\nContent-Length: ${length}\r\n\r\n`;

  it('closes a POST that declares 100 bytes and sends 5, within the ordinary limit', async () => {
    const { socket, ready, outcome } = open(REQUEST_LIMIT_MS * 8);
    await ready;
    socket.write(`${jsonHead(100)}{"nam`);
    const { closedAfterMs, response } = await outcome;
    expect(closedAfterMs).toBeLessThan(REQUEST_LIMIT_MS + SLACK_MS);
    if (response) expect(response).toMatch(/^HTTP\/1\.1 408/);
  });

  it('closes a POST whose body trickles in a byte at a time (never idle, never finished)', async () => {
    const { socket, ready, outcome } = open(REQUEST_LIMIT_MS * 8);
    await ready;
    socket.write(jsonHead(100));
    void trickle(socket, Array.from({ length: 100 }, () => ' '), 200);
    const { closedAfterMs, response } = await outcome;
    expect(closedAfterMs).toBeLessThan(REQUEST_LIMIT_MS + SLACK_MS);
    if (response) expect(response).toMatch(/^HTTP\/1\.1 408/);
  });

  it.each([
    ['an unknown route', '/api/no-such-route', 'same-origin'],
    ['a cross-site request', '/api/billing/cancel', 'https://evil.example'],
  ])('closes %s answered early while its body trickles on', async (_label, path, origin) => {
    const { socket, ready, outcome } = open(REQUEST_LIMIT_MS * 8);
    await ready;
    socket.write(`POST ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nOrigin: ${origin === 'same-origin' ? t.config.publicUrl : origin}\r\nCookie: ${cookie}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n`);
    void trickle(socket, Array.from({ length: 100 }, () => ' '), 200);
    const { closedAfterMs } = await outcome;
    expect(closedAfterMs).toBeLessThan(REQUEST_LIMIT_MS + SLACK_MS);
  });

  it('closes a connection whose headers never finish', async () => {
    const { socket, ready, outcome } = open(REQUEST_LIMIT_MS * 8);
    await ready;
    socket.write(`GET /api/health HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n`);
    void trickle(socket, Array.from({ length: 40 }, (_, i) => `X-Slow-${i}: a\r\n`), 200);
    const { closedAfterMs } = await outcome;
    expect(closedAfterMs).toBeLessThan(REQUEST_LIMIT_MS + SLACK_MS);
  });

  it('closes a connection that never sends a byte', async () => {
    const { ready, outcome } = open(REQUEST_LIMIT_MS * 8);
    await ready;
    expect((await outcome).closedAfterMs).toBeLessThan(REQUEST_LIMIT_MS + SLACK_MS);
  });

  it('still answers ordinary requests, with and without a body', async () => {
    expect((await fetch(`http://127.0.0.1:${port}/api/health`)).status).toBe(200);
    const { socket, ready, outcome } = open(REQUEST_LIMIT_MS * 4);
    await ready;
    const body = JSON.stringify({ name: 'Steady Sam', email: 'steady@example.com' });
    socket.write(`${jsonHead(Buffer.byteLength(body)).replace('\r\n\r\n', '\r\nConnection: close\r\n\r\n')}${body}`);
    const { response } = await outcome;
    expect(response).toMatch(/^HTTP\/1\.1 (200|201|400) /);
  });

  /** A real multipart upload as the browser sends it, as head + body bytes. */
  async function multipartUpload(title: string) {
    const form = new FormData();
    form.append('title', title);
    form.append('description', 'Uploaded over a slow line.');
    form.append('categories', 'mindfulness');
    form.append('file', new Blob([readFileSync('tests/fixtures/audio/tone-3s.mp3')], { type: 'audio/mpeg' }), 'slow.mp3');
    const request = new Request('http://127.0.0.1/', { method: 'POST', body: form });
    const body = new Uint8Array(await request.arrayBuffer());
    const head = `POST /api/admin/meditations HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nOrigin: ${t.config.publicUrl}\r\nCookie: ${cookie}\r\nConnection: close\r\nContent-Type: ${request.headers.get('content-type')}\r\nContent-Length: ${body.length}\r\n\r\n`;
    return { head, body };
  }
  const pieces = (bytes: Uint8Array, count: number) => Array.from({ length: count }, (_, i) => bytes.subarray(Math.floor((i * bytes.length) / count), Math.floor(((i + 1) * bytes.length) / count)));

  it('lets a slow but steady upload run past the ordinary limit, inside its own', async () => {
    const { head, body } = await multipartUpload('Slow and Steady');
    const { socket, ready, outcome } = open(UPLOAD_LIMIT_MS * 3);
    await ready;
    socket.write(head);
    const started = Date.now();
    await trickle(socket, pieces(body, 10), 250);
    const { response } = await outcome;
    expect(Date.now() - started).toBeGreaterThan(REQUEST_LIMIT_MS * 2);
    expect(response).toMatch(/^HTTP\/1\.1 201 /);
    expect(response).toContain('Slow and Steady');
  });

  it('gives an anonymous upload only the ordinary deadline (the long one is for staff)', async () => {
    const { head, body } = await multipartUpload('Not Signed In');
    const { socket, ready, outcome } = open(UPLOAD_LIMIT_MS * 3);
    await ready;
    socket.write(head.replace(/Cookie: [^\r]*\r\n/, '').replace('Connection: close\r\n', ''));
    void trickle(socket, pieces(body, 400), 200);
    const { closedAfterMs, response } = await outcome;
    expect(closedAfterMs).toBeLessThan(REQUEST_LIMIT_MS + SLACK_MS);
    expect(response).toMatch(/^HTTP\/1\.1 401 /);
  });

  it('cuts an upload that trickles on past the upload limit', async () => {
    const { head, body } = await multipartUpload('Never Finishes');
    const { socket, ready, outcome } = open(UPLOAD_LIMIT_MS * 3);
    await ready;
    socket.write(head);
    void trickle(socket, pieces(body, 400), 200); // 80 s if let run
    const { closedAfterMs, response } = await outcome;
    expect(closedAfterMs).toBeGreaterThan(UPLOAD_LIMIT_MS - 500);
    expect(closedAfterMs).toBeLessThan(UPLOAD_LIMIT_MS + SLACK_MS);
    if (response) expect(response).toMatch(/^HTTP\/1\.1 408/);
  });
});
