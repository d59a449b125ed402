/** Apple's client secret as Apple checks it, and the key file refused at start with words that name the setting (decision 0064). */
import { generateKeyPairSync, verify } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { appleClientSecret, jwtClaims, loadAppleSigningKey } from '#server/features/auth/apple-tokens.ts';
import { createAppleKeyFile, TEST_KEY_ID, TEST_TEAM_ID } from '#tests/fakes/apple-id-server.ts';

describe('Apple client secrets', () => {
  it('are ES256 JWTs for one client, issued by the team, five minutes long, signed by the key', () => {
    const file = createAppleKeyFile();
    const key = loadAppleSigningKey({ keyId: TEST_KEY_ID, teamId: TEST_TEAM_ID, privateKeyFile: file.path });
    const now = Date.UTC(2026, 10, 28, 10, 0, 0);
    const secret = appleClientSecret(key, 'app.harbourmind', now);
    const [header, claims, signature] = secret.split('.');
    expect(JSON.parse(Buffer.from(header, 'base64url').toString())).toEqual({ alg: 'ES256', kid: TEST_KEY_ID, typ: 'JWT' });
    expect(jwtClaims(secret)).toEqual({ iss: TEST_TEAM_ID, iat: now / 1000, exp: now / 1000 + 300, aud: 'https://appleid.apple.com', sub: 'app.harbourmind' });
    expect(verify('sha256', Buffer.from(`${header}.${claims}`), { key: file.publicKey, dsaEncoding: 'ieee-p1363' }, Buffer.from(signature, 'base64url'))).toBe(true);
    // Another key's public half does not verify it.
    const stranger = generateKeyPairSync('ec', { namedCurve: 'prime256v1' }).publicKey;
    expect(verify('sha256', Buffer.from(`${header}.${claims}`), { key: stranger, dsaEncoding: 'ieee-p1363' }, Buffer.from(signature, 'base64url'))).toBe(false);
  });

  it('refuse a key file that is missing or not a P-256 key, naming APPLE_PRIVATE_KEY_FILE', () => {
    const dir = mkdtempSync(join(tmpdir(), 'hm-apple-bad-key-'));
    const rsa = join(dir, 'rsa.pem');
    writeFileSync(rsa, generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs8', format: 'pem' }));
    expect(() => loadAppleSigningKey({ keyId: TEST_KEY_ID, teamId: TEST_TEAM_ID, privateKeyFile: join(dir, 'missing.p8') })).toThrow(/^APPLE_PRIVATE_KEY_FILE: cannot read a private key/);
    expect(() => loadAppleSigningKey({ keyId: TEST_KEY_ID, teamId: TEST_TEAM_ID, privateKeyFile: rsa })).toThrow(/^APPLE_PRIVATE_KEY_FILE: not a P-256 key/);
  });
});
