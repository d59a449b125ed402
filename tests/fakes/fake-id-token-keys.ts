/**
 * A local stand-in for Apple's and Google's published sign-in keys (JWKS at
 * https://appleid.apple.com/auth/keys and https://www.googleapis.com/oauth2/v3/certs): a real HTTP
 * server speaking their JSON format with a test RSA key, and RS256 identity tokens signed with it as
 * the providers sign theirs. The server under test is never configured to trust it: in the test
 * process (or the e2e server's, through fake-id-token-keys-preload.ts) fetches of those two exact
 * addresses are sent here instead, so better-auth's own verification runs unchanged.
 */
import { createHash, generateKeyPairSync, sign, type KeyObject } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { routeFetches } from '#tests/fakes/route-fetches.ts';

export const APPLE_KEYS_URL = 'https://appleid.apple.com/auth/keys';
export const GOOGLE_KEYS_URL = 'https://www.googleapis.com/oauth2/v3/certs';
const ROUTES: Record<string, string> = { [APPLE_KEYS_URL]: '/auth/keys', [GOOGLE_KEYS_URL]: '/oauth2/v3/certs' };

const KID = 'hm-test-key-1';
const b64url = (value: Buffer | string) => Buffer.from(value).toString('base64url');

/** The SHA-256 (hex) of the app's nonce: what the app hands Apple, and what Apple's token carries. */
export const sha256Hex = (value: string) => createHash('sha256').update(value).digest('hex');

/** An RS256 JWT as Apple and Google sign identity tokens (header with the key id). */
export function signJwt(claims: Record<string, unknown>, privateKey: KeyObject, kid = KID): string {
  const input = `${b64url(JSON.stringify({ alg: 'RS256', kid, typ: 'JWT' }))}.${b64url(JSON.stringify(claims))}`;
  return `${input}.${b64url(sign('sha256', Buffer.from(input), privateKey))}`;
}

export type FakeIdTokenKeys = {
  url: string;
  /** A token signed by the published key. */
  sign(claims: Record<string, unknown>): string;
  /** A token with the published key's id but signed by another key (a forgery). */
  forge(claims: Record<string, unknown>): string;
  close(): Promise<void>;
};

export async function startFakeIdTokenKeys(): Promise<FakeIdTokenKeys> {
  const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const stranger = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
  const jwk = { ...publicKey.export({ format: 'jwk' }), kid: KID, use: 'sig', alg: 'RS256' };
  const server = createServer((request, response) => {
    if (request.method !== 'GET' || !Object.values(ROUTES).includes(request.url ?? '')) {
      response.writeHead(404).end();
      return;
    }
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ keys: [jwk] }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    sign: (claims) => signJwt(claims, privateKey),
    forge: (claims) => signJwt(claims, stranger),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/**
 * Sends this process's fetches of Apple's and Google's key addresses to the fake (only those two
 * addresses; everything else goes on unchanged). Returns the undo.
 */
export function routeProviderKeysTo(fakeUrl: string): () => void {
  return routeFetches(ROUTES, fakeUrl);
}

/** Claims of an identity token as Apple makes them for the app (audience: its bundle id). */
export function appleClaims(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  const now = Math.floor(Date.now() / 1000);
  return {
    iss: 'https://appleid.apple.com',
    aud: 'app.harbourmind',
    exp: now + 600,
    iat: now,
    sub: '001234.5e1f0c3c2b9a4d7e8f6a.0917',
    email: 'lena.apple@example.com',
    email_verified: 'true',
    nonce_supported: true,
    ...overrides,
  };
}

/** Claims of a Google identity token for a given client id. */
export function googleClaims(aud: string, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  const now = Math.floor(Date.now() / 1000);
  return {
    iss: 'https://accounts.google.com',
    aud,
    exp: now + 600,
    iat: now,
    sub: '109876543210987654321',
    email: 'gwen.google@example.com',
    email_verified: true,
    name: 'Gwen Google',
    ...overrides,
  };
}
