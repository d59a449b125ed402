/**
 * The app-link files (issue 19, item 1): absent until configured, then exactly what Apple's and
 * Google's verifiers read, for the paths the app finishes; bad configuration is refused at start.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '#server/config.ts';
import { createTestApp, type TestApp } from '#tests/setup/test-app.ts';

const FINGERPRINT = Array.from({ length: 32 }, (_, i) => (i * 7).toString(16).padStart(2, '0').toUpperCase()).join(':');

describe('app links', () => {
  let plain: TestApp;
  let linked: TestApp;
  beforeAll(async () => {
    [plain, linked] = await Promise.all([createTestApp(), createTestApp({ env: { APPLE_TEAM_ID: 'ABCDE12345', ANDROID_CERT_SHA256: FINGERPRINT } })]);
  });
  afterAll(async () => {
    await Promise.all([plain.close(), linked.close()]);
  });

  it('answers 404 for a platform that is not configured, so links stay in the browser', async () => {
    for (const url of ['/.well-known/apple-app-site-association', '/.well-known/assetlinks.json']) {
      const response = await plain.app.inject({ method: 'GET', url });
      expect(response.statusCode, url).toBe(404);
    }
  });

  it('names the app, its team and signing certificates, and the paths the app finishes', async () => {
    const apple = await linked.app.inject({ method: 'GET', url: '/.well-known/apple-app-site-association' });
    expect(apple.statusCode).toBe(200);
    expect(apple.headers['content-type']).toMatch(/^application\/json/);
    expect(apple.json()).toEqual({
      applinks: { details: [{ appIDs: ['ABCDE12345.app.harbourmind'], components: [{ '/': '/verify-email' }, { '/': '/reset-password' }] }] },
      webcredentials: { apps: ['ABCDE12345.app.harbourmind'] },
    });
    const android = await linked.app.inject({ method: 'GET', url: '/.well-known/assetlinks.json' });
    expect(android.json()).toEqual([
      { relation: ['delegate_permission/common.handle_all_urls'], target: { namespace: 'android_app', package_name: 'app.harbourmind', sha256_cert_fingerprints: [FINGERPRINT] } },
    ]);
  });

  it('refuses a malformed team id or fingerprint at start', () => {
    for (const env of [{ APPLE_TEAM_ID: 'abc' }, { ANDROID_CERT_SHA256: 'AA:BB' }, { NATIVE_APP_ID: 'not an id' }]) {
      expect(() => loadConfig(env), JSON.stringify(env)).toThrow(ConfigError);
    }
  });
});
