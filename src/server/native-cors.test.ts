/**
 * CORS for the native apps (issue 19): their WebViews' origins, and only those, may call the API
 * cross-origin, without credentials; a bearer sign-in from the app's origin works end to end; the
 * prepared lane leaves cross-origin reads to Fastify so they carry the consent too. Over a real
 * socket, since the lane sits in front of Fastify.
 */
import { writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMediaSigner } from '#server/features/media/media-signing.ts';
import { loadOrCreateSecret } from '#server/secrets.ts';
import { createSignedInUser } from '#tests/setup/auth-helpers.ts';
import { rawRequest } from '#tests/setup/raw-http.ts';
import { createTestApp, type TestApp } from '#tests/setup/test-app.ts';

let t: TestApp;
let port: number;
beforeAll(async () => {
  t = await createTestApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  port = (t.app.server.address() as AddressInfo).port;
});
afterAll(() => t.close());

const preflight = (origin: string) =>
  rawRequest(port, {
    method: 'OPTIONS',
    path: '/api/journal/records/6a0b3c1e-2d4f-4a5b-8c6d-7e8f9a0b1c2d',
    headers: { origin, 'access-control-request-method': 'PUT', 'access-control-request-headers': 'authorization,content-type' },
  });

describe('the native apps’ origins', () => {
  it('consents to the apps’ WebView origins only, never with credentials', async () => {
    for (const origin of ['capacitor://localhost', 'https://localhost']) {
      const answer = await preflight(origin);
      expect(answer.status, origin).toBe(204);
      expect(answer.headers['access-control-allow-origin'], origin).toBe(origin);
      expect(String(answer.headers['access-control-allow-headers'])).toContain('authorization');
      expect(String(answer.headers['access-control-allow-methods'])).toContain('PUT');
      expect(answer.headers['access-control-allow-credentials'], origin).toBeUndefined();
    }
    for (const origin of ['https://evil.example', 'http://localhost', 'capacitor://evil', 'null']) {
      expect((await preflight(origin)).headers['access-control-allow-origin'], origin).toBeUndefined();
    }
  });

  it('gives prepared reads the consent too (the lane leaves cross-origin requests to Fastify)', async () => {
    for (let read = 0; read < 3; read += 1) {
      const answer = await rawRequest(port, { method: 'GET', path: '/api/meditations?category=all', headers: { origin: 'capacitor://localhost' } });
      expect(answer.status).toBe(200);
      expect(answer.headers['access-control-allow-origin'], `read ${read}`).toBe('capacitor://localhost');
    }
    // Same-origin reads (no Origin header) still have no CORS headers at all.
    expect((await rawRequest(port, { method: 'GET', path: '/api/meditations?category=all' })).headers['access-control-allow-origin']).toBeUndefined();
  });

  it('signs in from the iOS app’s origin with a bearer session the app can read, and uses it', async () => {
    await createSignedInUser(t, 'ios-app@example.com', 'harbour-app-1');
    const origin = 'capacitor://localhost';
    const signIn = await rawRequest(port, {
      path: '/api/auth/sign-in/email',
      headers: { origin, 'x-session-transport': 'bearer' },
      body: { email: 'ios-app@example.com', password: 'harbour-app-1' },
      from: '127.0.0.91',
    });
    expect(signIn.status).toBe(200);
    expect(signIn.headers['access-control-allow-origin']).toBe(origin);
    expect(String(signIn.headers['access-control-expose-headers'])).toContain('set-auth-token');
    const token = String(signIn.headers['set-auth-token'] ?? '');
    expect(token.length).toBeGreaterThan(10);
    const me = await rawRequest(port, { method: 'GET', path: '/api/me', headers: { origin, authorization: `Bearer ${token}` } });
    expect(me.json<{ user: { email: string } }>().user.email).toBe('ios-app@example.com');
    expect(me.headers['access-control-allow-origin']).toBe(origin);
  });

  it('lets the apps’ audio element and downloads read the signed media with CORS (the media’s CORP would refuse a plain cross-origin read)', async () => {
    const source = join(t.config.dataDir, 'cors-breath.mp3');
    writeFileSync(source, Buffer.alloc(4096, 7));
    await t.storage.putFile('cors-breath.mp3', source);
    const signer = createMediaSigner(`media:${loadOrCreateSecret(t.config.dataDir, 'auth-secret', t.config.authSecret)}`);
    const { url } = signer.sign('cors-breath.mp3');
    const origin = 'https://localhost';
    const ranged = await rawRequest(port, { method: 'GET', path: url, headers: { origin, range: 'bytes=0-99' } });
    expect(ranged.status).toBe(206);
    expect(ranged.headers['access-control-allow-origin']).toBe(origin);
    expect(String(ranged.headers['access-control-expose-headers'])).toContain('content-range');
    expect(ranged.headers['access-control-allow-credentials']).toBeUndefined();
    // The web's own plain reads keep CORP same-origin, and other sites get no consent.
    const plain = await rawRequest(port, { method: 'GET', path: url });
    expect(plain.headers['cross-origin-resource-policy']).toBe('same-origin');
    expect((await rawRequest(port, { method: 'GET', path: url, headers: { origin: 'https://evil.example' } })).headers['access-control-allow-origin']).toBeUndefined();
  });
});
