/**
 * A local push service (Web Push, RFC 8030) for the reminder tests: it accepts POSTs to its
 * endpoints as Google's or Mozilla's does, checks the VAPID authorisation (RFC 8292: an ES256 JWT
 * for this origin, signed by the key it names), and keeps each message still encrypted. A test
 * subscribes a "browser" (`newBrowserSubscription`: a P-256 key pair and an auth secret, as a
 * browser makes) and decrypts what arrived with its private key (RFC 8291, with http_ece, the
 * reference implementation web-push itself encrypts with).
 */
import { createECDH, createPublicKey, randomBytes, verify, type ECDH } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import ece from 'http_ece';

export type PushedMessage = { path: string; headers: IncomingHttpHeaders; body: Buffer; vapidPublicKey: string };

export type FakePushService = {
  origin: string;
  received: PushedMessage[];
  /** What the next requests to a path are answered (a status per call; then 201 again). */
  answerNext(path: string, ...statuses: number[]): void;
  close(): Promise<void>;
};

function verifyVapid(authorization: string | undefined, origin: string): string {
  const match = /^vapid t=([^,\s]+),\s*k=([A-Za-z0-9_-]+)$/.exec(authorization ?? '');
  if (!match) throw new Error('no VAPID authorisation');
  const [, jwt, k] = match;
  const [header, payload, signature] = jwt.split('.');
  const publicKey = Buffer.from(k, 'base64url');
  const key = createPublicKey({ key: { kty: 'EC', crv: 'P-256', x: publicKey.subarray(1, 33).toString('base64url'), y: publicKey.subarray(33, 65).toString('base64url') }, format: 'jwk' });
  if (!verify('sha256', Buffer.from(`${header}.${payload}`), { key, dsaEncoding: 'ieee-p1363' }, Buffer.from(signature, 'base64url'))) throw new Error('bad VAPID signature');
  const claims = JSON.parse(Buffer.from(payload, 'base64url').toString()) as { aud: string; exp: number; sub: string };
  if (claims.aud !== origin) throw new Error(`VAPID audience ${claims.aud} is not ${origin}`);
  if (claims.exp * 1000 < Date.now()) throw new Error('VAPID token expired');
  if (!/^(mailto:|https:)/.test(claims.sub)) throw new Error('VAPID subject is not a contact');
  return k;
}

export async function startFakePushService(): Promise<FakePushService> {
  const received: PushedMessage[] = [];
  const answers = new Map<string, number[]>();
  let origin = '';
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const path = request.url ?? '/';
      let vapidPublicKey: string;
      try {
        if (request.method !== 'POST') throw new Error('not a POST');
        if (request.headers['content-encoding'] !== 'aes128gcm') throw new Error('not aes128gcm');
        if (!request.headers.ttl) throw new Error('no TTL');
        vapidPublicKey = verifyVapid(request.headers.authorization, origin);
      } catch (error) {
        response.writeHead(401).end((error as Error).message);
        return;
      }
      const status = answers.get(path)?.shift() ?? 201;
      if (status === 201) received.push({ path, headers: request.headers, body: Buffer.concat(chunks), vapidPublicKey });
      response.writeHead(status).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    received,
    answerNext: (path, ...statuses) => answers.set(path, [...(answers.get(path) ?? []), ...statuses]),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export type BrowserSubscription = { endpoint: string; keys: { p256dh: string; auth: string }; decrypt(message: PushedMessage): unknown };

/** What a browser makes when a page subscribes: its own key pair and auth secret, and an endpoint at the push service. */
export function newBrowserSubscription(service: FakePushService, name = randomBytes(8).toString('hex')): BrowserSubscription {
  const ecdh: ECDH = createECDH('prime256v1');
  ecdh.generateKeys();
  const auth = randomBytes(16).toString('base64url');
  return {
    endpoint: `${service.origin}/push/${name}`,
    keys: { p256dh: ecdh.getPublicKey().toString('base64url'), auth },
    decrypt: (message) => JSON.parse(ece.decrypt(message.body, { version: 'aes128gcm', privateKey: ecdh, authSecret: auth }).toString('utf8')) as unknown,
  };
}
