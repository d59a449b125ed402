/**
 * Apple's token and revoke endpoints for Sign in with Apple (issue 35, item 7; decision 0064). Apple
 * requires an app that offers Sign in with Apple to revoke the person's tokens when they delete their
 * account; revoking needs a refresh token, which only Apple's token endpoint hands out, for the client
 * (the app's bundle id, or the web's Services ID) the authorization code was made for. Both endpoints
 * take a client secret: a short ES256 JWT signed with the developer account's Sign in with Apple key.
 *
 * Tokens are kept sealed with better-auth's token encryption (XChaCha20-Poly1305, key from the auth
 * secret; `account.encryptOAuthTokens`), the one place the server encrypts secrets at rest.
 */
import { createPrivateKey, sign, type KeyObject } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { symmetricDecrypt, symmetricEncrypt } from 'better-auth/crypto';

const APPLE_TOKEN_URL = 'https://appleid.apple.com/auth/token';
const APPLE_REVOKE_URL = 'https://appleid.apple.com/auth/revoke';
const APPLE_ISSUER = 'https://appleid.apple.com';
/** A client secret lives five minutes: made for one request, never kept (Apple allows up to six months). */
const CLIENT_SECRET_SECONDS = 300;
const REQUEST_DEADLINE_MS = 10_000;

export type AppleSigningKey = { keyId: string; teamId: string; privateKey: KeyObject };

/** Reads the .p8 key; refuses anything but a P-256 private key with a message naming the setting. */
export function loadAppleSigningKey({ keyId, teamId, privateKeyFile }: { keyId: string; teamId: string; privateKeyFile: string }): AppleSigningKey {
  let privateKey: KeyObject;
  try {
    privateKey = createPrivateKey(readFileSync(privateKeyFile));
  } catch (error) {
    throw new Error(`APPLE_PRIVATE_KEY_FILE: cannot read a private key from ${privateKeyFile} (${(error as Error).message})`, { cause: error });
  }
  if (privateKey.asymmetricKeyType !== 'ec' || privateKey.asymmetricKeyDetails?.namedCurve !== 'prime256v1') {
    throw new Error('APPLE_PRIVATE_KEY_FILE: not a P-256 key (use the .p8 file of a Sign in with Apple key from the developer account)');
  }
  return { keyId, teamId, privateKey };
}

const b64url = (value: Buffer | string) => Buffer.from(value).toString('base64url');

/** The client secret Apple's endpoints take: ES256, `kid` the key id, issued by the team for `clientId`. */
export function appleClientSecret(key: AppleSigningKey, clientId: string, now = Date.now()): string {
  const iat = Math.floor(now / 1000);
  const header = b64url(JSON.stringify({ alg: 'ES256', kid: key.keyId, typ: 'JWT' }));
  const claims = b64url(JSON.stringify({ iss: key.teamId, iat, exp: iat + CLIENT_SECRET_SECONDS, aud: APPLE_ISSUER, sub: clientId }));
  const signature = sign('sha256', Buffer.from(`${header}.${claims}`), { key: key.privateKey, dsaEncoding: 'ieee-p1363' });
  return `${header}.${claims}.${b64url(signature)}`;
}

/** The claims of a JWT, unverified: only for tokens already verified, or received from Apple itself over TLS. */
export function jwtClaims(token: string): Record<string, unknown> | undefined {
  try {
    const claims: unknown = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8'));
    return typeof claims === 'object' && claims !== null ? (claims as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

type SecretConfig = Parameters<typeof symmetricEncrypt>[0]['key'];

/** Seals and opens provider tokens as better-auth does with `encryptOAuthTokens` (same key, same format). */
export type TokenSealer = { seal(token: string): Promise<string>; open(sealed: string): Promise<string> };

/** better-auth's own test for a sealed token (oauth2/utils.ts): its envelope, or bare hex. */
export const looksSealed = (value: string) => value.startsWith('$ba$') || (value.length % 2 === 0 && /^[0-9a-f]+$/i.test(value));

export function tokenSealer(key: SecretConfig): TokenSealer {
  return {
    seal: (token) => symmetricEncrypt({ key, data: token }),
    // A token kept before sealing was turned on is read as it is (better-auth reads such tokens the same way).
    open: (sealed) => (looksSealed(sealed) ? symmetricDecrypt({ key, data: sealed }) : Promise.resolve(sealed)),
  };
}

async function postForm(url: string, form: Record<string, string>): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
    body: new URLSearchParams(form).toString(),
    redirect: 'error',
    signal: AbortSignal.timeout(REQUEST_DEADLINE_MS),
  });
  const text = await response.text();
  let body: Record<string, unknown> = {};
  try {
    const parsed: unknown = text ? JSON.parse(text) : {};
    if (typeof parsed === 'object' && parsed !== null) body = parsed as Record<string, unknown>;
  } catch {
    // Apple answers JSON; anything else is kept out of logs (it could echo what was sent).
  }
  return { status: response.status, body };
}

/**
 * Exchanges an authorization code from the app for Apple's refresh token. The identity token Apple
 * returns must name the same person (`sub`) and client as the sign-in it came with, so a code from
 * another person's sign-in can never attach their token to this account.
 */
export async function exchangeAppleCode({ key, clientId, code, sub }: { key: AppleSigningKey; clientId: string; code: string; sub: string }): Promise<string> {
  const { status, body } = await postForm(APPLE_TOKEN_URL, { client_id: clientId, client_secret: appleClientSecret(key, clientId), code, grant_type: 'authorization_code' });
  if (status !== 200) throw new Error(`Apple's token endpoint answered ${status}${typeof body.error === 'string' ? ` (${body.error})` : ''}`);
  const claims = typeof body.id_token === 'string' ? jwtClaims(body.id_token) : undefined;
  if (!claims || claims.iss !== APPLE_ISSUER || claims.aud !== clientId || claims.sub !== sub) throw new Error('Apple’s token endpoint answered for another person or client');
  if (typeof body.refresh_token !== 'string' || body.refresh_token === '') throw new Error('Apple’s token endpoint answered without a refresh token');
  return body.refresh_token;
}

/**
 * Revokes a refresh token. 'revoked': Apple took it; 'gone': Apple no longer knows the grant (the person
 * removed the app in their Apple ID settings, or it expired), nothing is left to revoke; otherwise the
 * reason to try again later.
 */
export async function revokeAppleToken({ key, clientId, token }: { key: AppleSigningKey; clientId: string; token: string }): Promise<'revoked' | 'gone' | { retry: string }> {
  try {
    const { status, body } = await postForm(APPLE_REVOKE_URL, { client_id: clientId, client_secret: appleClientSecret(key, clientId), token, token_type_hint: 'refresh_token' });
    if (status === 200) return 'revoked';
    if (status === 400 && body.error === 'invalid_grant') return 'gone';
    return { retry: `Apple answered ${status}${typeof body.error === 'string' ? ` (${body.error})` : ''}` };
  } catch (error) {
    return { retry: error instanceof Error ? error.message : String(error) };
  }
}
