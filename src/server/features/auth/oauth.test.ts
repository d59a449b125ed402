import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { origin } from '#tests/setup/auth-helpers.ts';
import { createTestApp, type TestApp } from '#tests/setup/test-app.ts';

/**
 * With client ids configured, 'Continue with Google/Apple' starts a real OAuth authorization-code
 * flow: the server answers with the provider's authorize URL carrying our client id, callback and
 * a state it keeps. (The provider's side cannot be reached from here.)
 */
describe('OAuth providers when configured', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({
      env: {
        GOOGLE_CLIENT_ID: 'google-client-123',
        GOOGLE_CLIENT_SECRET: 'google-secret',
        APPLE_CLIENT_ID: 'app.harbourmind.web',
        APPLE_CLIENT_SECRET: 'apple-secret-jwt',
      },
    });
  });
  afterAll(() => t.close());

  it('reports both providers as available', async () => {
    // With Google's web client id, which the Android app signs in for.
    expect((await t.app.inject({ method: 'GET', url: '/api/auth-providers' })).json()).toEqual({ google: true, apple: true, googleClientId: 'google-client-123' });
  });

  it.each([
    ['google', 'accounts.google.com', 'google-client-123'],
    ['apple', 'appleid.apple.com', 'app.harbourmind.web'],
  ])('%s: answers with the provider authorize URL and sets the state cookie', async (provider, host, clientId) => {
    const res = await t.app.inject({ method: 'POST', url: '/api/auth/sign-in/social', headers: origin(t), payload: { provider, callbackURL: '/' } });
    expect(res.statusCode).toBe(200);
    const url = new URL(res.json().url);
    expect(url.hostname).toBe(host);
    expect(url.searchParams.get('client_id')).toBe(clientId);
    expect(url.searchParams.get('redirect_uri')).toBe(`${t.config.publicUrl}/api/auth/callback/${provider}`);
    expect(url.searchParams.get('state')).toBeTruthy();
    expect(([] as string[]).concat(res.headers['set-cookie'] ?? []).join(';')).toMatch(/HttpOnly/i);
  });
});
