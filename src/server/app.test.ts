import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterEach, describe, expect, it, onTestFinished } from 'vitest';
import { THEME_BOOT_SCRIPT } from '#shared/theme.ts';
import { createTestApp, type TestApp } from '#tests/setup/test-app.ts';
import { createTestDatabase } from '#tests/setup/test-db.ts';
import { openForSuite } from '#tests/setup/suite-resource.ts';

let t: TestApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

describe('HTTP behaviour', () => {
  // An app per test (their settings differ), over one database: none of them writes to it.
  const database = openForSuite(() => createTestDatabase('pglite'));
  it('sends the security headers as real HTTP headers', async () => {
    t = await createTestApp({ database });
    const res = await t.app.inject({ method: 'GET', url: '/api/health' });
    const csp = String(res.headers['content-security-policy']);
    const scriptSrc = csp.split(';').find((d) => d.trim().startsWith('script-src'))!;
    // 'self', WebAssembly (the journal's Argon2id, decision 0061) and the theme script's own hash: no 'unsafe-inline',
    // no 'unsafe-eval', no other inline script can run.
    expect(scriptSrc.trim()).toBe(`script-src 'self' 'wasm-unsafe-eval' 'sha256-${createHash('sha256').update(THEME_BOOT_SCRIPT).digest('base64')}'`);
    expect(scriptSrc.trim().split(/\s+/).filter((token) => token.includes('unsafe'))).toEqual(["'wasm-unsafe-eval'"]);
    // In script-src only: no other directive (and no default-src fallback) grants it.
    expect(csp.split(';').filter((d) => d.includes('wasm-unsafe-eval'))).toEqual([scriptSrc]);
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("object-src 'none'");
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
    expect(res.headers['strict-transport-security']).toBeUndefined();
  });

  it('sends the same full set on refusals too (a 404, a 401), computed once at start', async () => {
    t = await createTestApp({ database });
    for (const url of ['/api/health', '/api/no-such-thing', '/api/favourites']) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.headers, url).toMatchObject({
        'x-content-type-options': 'nosniff',
        'x-frame-options': 'SAMEORIGIN',
        'cross-origin-opener-policy': 'same-origin',
        'cross-origin-resource-policy': 'same-origin',
        'referrer-policy': 'strict-origin-when-cross-origin',
        'x-permitted-cross-domain-policies': 'none',
      });
      expect(String(res.headers['content-security-policy']), url).toContain("default-src 'self'");
    }
  });

  it('adds HSTS when served over https', async () => {
    t = await createTestApp({ database, env: { PUBLIC_URL: 'https://harbourmind.example' } });
    const res = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(res.headers['strict-transport-security']).toContain('max-age=');
  });

  it('answers unknown API paths with a JSON 404', async () => {
    t = await createTestApp({ database });
    const res = await t.app.inject({ method: 'GET', url: '/api/nothing-here' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ error: { code: 'not-found', message: 'Not found.' } });
  });

  it('rejects oversized request bodies before they reach a route', async () => {
    t = await createTestApp({ database });
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/health',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ big: 'x'.repeat(300 * 1024) }),
    });
    expect(res.statusCode).toBe(413);
  });

  it('serves the app for known pages and a logged 404 page for unknown paths', async () => {
    const lines: string[] = [];
    const stream = new Writable({
      write(chunk, _enc, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const distDir = mkdtempSync(join(tmpdir(), 'hm-web-'));
    onTestFinished(() => rmSync(distDir, { recursive: true, force: true }));
    mkdirSync(join(distDir, 'assets'), { recursive: true });
    writeFileSync(join(distDir, 'index.html'), '<!doctype html><div id="root"></div>');
    writeFileSync(join(distDir, 'assets', 'app-abc123.js'), 'console.log(1)');
    t = await createTestApp({ database, config: { webDistDir: distDir }, logger: { level: 'info', stream } });

    const home = await t.app.inject({ method: 'GET', url: '/meditations/sleeping' });
    expect(home.statusCode).toBe(200);
    // Spec 'robots noindex', for what is personal or one-time only (decision 0018); public pages stay indexable.
    expect(home.headers['x-robots-tag']).toBeUndefined();
    for (const url of ['/admin', '/account', '/journal', '/verify-email', '/reset-password', '/subscribe/sandbox-checkout']) {
      expect((await t.app.inject({ method: 'GET', url })).headers['x-robots-tag'], url).toBe('noindex, nofollow');
    }
    expect(home.headers['content-type']).toContain('text/html');
    expect(home.body).toContain('id="root"');

    const missing = await t.app.inject({ method: 'GET', url: '/no-such-page?token=secret' });
    expect(missing.statusCode).toBe(404);
    expect(missing.body).toContain('id="root"');
    const logged = lines.map((l) => JSON.parse(l)).find((l) => l.msg === '404 unknown page route');
    expect(logged?.route).toBe('/no-such-page');
    expect(lines.join('\n')).not.toContain('secret');

    const asset = await t.app.inject({ method: 'GET', url: '/assets/app-abc123.js' });
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['cache-control']).toContain('immutable');
  });
});
