/**
 * A local stand-in for Sign in with Apple's token and revoke endpoints (https://appleid.apple.com/auth/token
 * and /auth/revoke; issue 35, item 7): a real HTTP server speaking their form-encoded requests and JSON
 * answers. It checks every client secret as Apple does: an ES256 JWT whose signature verifies with the
 * test key's public half, `kid` the key id, issued by the team for `aud` https://appleid.apple.com, `sub`
 * the client id of the request, not expired. Codes are issued by the test (as Apple would hand one to
 * the app), exchanged once, and yield a refresh token the fake remembers; revocations are recorded.
 * `down` makes it answer 503, as an Apple outage would. The server under test is never configured to
 * call it: the test process's fetches of the two addresses are sent here (routeAppleIdTo).
 */
import { createPublicKey, generateKeyPairSync, randomBytes, verify, type KeyObject } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { routeFetches } from '#tests/fakes/route-fetches.ts';

const APPLE_TOKEN_URL = 'https://appleid.apple.com/auth/token';
const APPLE_REVOKE_URL = 'https://appleid.apple.com/auth/revoke';
const ROUTES: Record<string, string> = { [APPLE_TOKEN_URL]: '/auth/token', [APPLE_REVOKE_URL]: '/auth/revoke' };

export const TEST_TEAM_ID = 'HMTEAM0001';
export const TEST_KEY_ID = 'HMKEY00001';

/** A Sign in with Apple key as the developer account gives it: a P-256 .p8 (PKCS#8 PEM) file. */
export function createAppleKeyFile(): { path: string; publicKey: KeyObject } {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
  const dir = mkdtempSync(join(tmpdir(), 'hm-apple-key-'));
  const path = join(dir, `AuthKey_${TEST_KEY_ID}.p8`);
  writeFileSync(path, privateKey.export({ type: 'pkcs8', format: 'pem' }), { mode: 0o600 });
  return { path, publicKey };
}

type Claims = Record<string, unknown>;
const decode = (part: string | undefined): Claims | undefined => {
  try {
    return JSON.parse(Buffer.from(part ?? '', 'base64url').toString('utf8')) as Claims;
  } catch {
    return undefined;
  }
};

/** Why Apple would refuse this client secret for `clientId`, or undefined when it is good. */
function clientSecretProblem(secret: string | null, clientId: string | null, publicKey: KeyObject): string | undefined {
  if (!secret || !clientId) return 'missing client_id or client_secret';
  const [h, c, s] = secret.split('.');
  const header = decode(h);
  const claims = decode(c);
  if (!header || !claims || !s) return 'not a JWT';
  if (header.alg !== 'ES256' || header.kid !== TEST_KEY_ID) return 'wrong alg or kid';
  const signed = verify('sha256', Buffer.from(`${h}.${c}`), { key: publicKey, dsaEncoding: 'ieee-p1363' }, Buffer.from(s, 'base64url'));
  if (!signed) return 'bad signature';
  const now = Math.floor(Date.now() / 1000);
  if (claims.iss !== TEST_TEAM_ID || claims.aud !== 'https://appleid.apple.com' || claims.sub !== clientId) return 'wrong iss, aud or sub';
  if (typeof claims.exp !== 'number' || claims.exp <= now || typeof claims.iat !== 'number' || claims.iat > now + 60) return 'expired or not yet valid';
  return undefined;
}

export type FakeAppleId = {
  url: string;
  /** A code Apple would give the app (or the web's callback) for this person and client. */
  issueCode(grant: { clientId: string; sub: string; email?: string; nonce?: string }): string;
  /** Refresh tokens handed out, with their client. */
  refreshTokens: { clientId: string; token: string }[];
  /** Revocation requests that carried a good client secret. */
  revocations: { clientId: string; token: string; tokenTypeHint: string | null }[];
  /** Requests refused for their client secret, with the reason. */
  refusedSecrets: string[];
  /** While true, both endpoints answer 503. */
  down: boolean;
  close(): Promise<void>;
};

/** `signIdToken`: signs the id_token the token endpoint returns (the id-token keys fake's `sign`). */
export async function startFakeAppleId({ publicKey, signIdToken }: { publicKey: KeyObject; signIdToken: (claims: Claims) => string }): Promise<FakeAppleId> {
  const key = createPublicKey(publicKey.export({ type: 'spki', format: 'pem' }));
  const codes = new Map<string, { clientId: string; sub: string; email?: string; nonce?: string }>();
  const state: Omit<FakeAppleId, 'url' | 'close' | 'issueCode'> = { refreshTokens: [], revocations: [], refusedSecrets: [], down: false };
  const server = createServer((request, response) => {
    let raw = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => (raw += chunk));
    request.on('end', () => {
      const json = (status: number, body: object) => response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
      if (request.method !== 'POST' || !Object.values(ROUTES).includes(request.url ?? '')) return response.writeHead(404).end();
      if (state.down) return json(503, { error: 'server_error' });
      if (!String(request.headers['content-type']).startsWith('application/x-www-form-urlencoded')) return json(400, { error: 'invalid_request' });
      const form = new URLSearchParams(raw);
      const clientId = form.get('client_id');
      const problem = clientSecretProblem(form.get('client_secret'), clientId, key);
      if (problem || !clientId) {
        state.refusedSecrets.push(problem ?? 'missing client_id');
        return json(400, { error: 'invalid_client' });
      }
      if (request.url === '/auth/revoke') {
        const token = form.get('token');
        if (!token) return json(400, { error: 'invalid_request' });
        state.revocations.push({ clientId, token, tokenTypeHint: form.get('token_type_hint') });
        // Apple answers 200 for a token it revoked and for one that was already invalid.
        return response.writeHead(200).end();
      }
      const grant = codes.get(form.get('code') ?? '');
      if (form.get('grant_type') !== 'authorization_code' || !grant || grant.clientId !== clientId) return json(400, { error: 'invalid_grant' });
      codes.delete(form.get('code') ?? '');
      const refreshToken = `r${randomBytes(16).toString('hex')}.0.ns.${randomBytes(12).toString('base64url')}`;
      state.refreshTokens.push({ clientId, token: refreshToken });
      const now = Math.floor(Date.now() / 1000);
      const idToken = signIdToken({
        iss: 'https://appleid.apple.com',
        aud: clientId,
        exp: now + 600,
        iat: now,
        sub: grant.sub,
        email: grant.email ?? `${grant.sub.slice(0, 6)}@privaterelay.appleid.com`,
        email_verified: 'true',
        ...(grant.nonce ? { nonce: grant.nonce, nonce_supported: true } : {}),
      });
      return json(200, { access_token: `a${randomBytes(16).toString('hex')}`, token_type: 'Bearer', expires_in: 3600, refresh_token: refreshToken, id_token: idToken });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return Object.assign(state, {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    issueCode(grant: { clientId: string; sub: string; email?: string; nonce?: string }) {
      const code = `c${randomBytes(16).toString('hex')}.0.ns.${randomBytes(8).toString('base64url')}`;
      codes.set(code, grant);
      return code;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  });
}

/** Sends this process's fetches of Apple's token and revoke addresses to the fake (only those). Returns the undo. */
export function routeAppleIdTo(fakeUrl: string): () => void {
  return routeFetches(ROUTES, fakeUrl);
}
