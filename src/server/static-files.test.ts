/** The build's files from memory, through the real app: encodings, caching, conditional requests, what is not public. */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '#tests/setup/test-app.ts';

const SCRIPT = `console.log(${JSON.stringify('a calm harbour '.repeat(200))});`;
const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');

describe('static files of the build', () => {
  let t: TestApp;
  let distDir: string;
  beforeAll(async () => {
    distDir = mkdtempSync(join(tmpdir(), 'hm-static-'));
    mkdirSync(join(distDir, 'assets'), { recursive: true });
    mkdirSync(join(distDir, 'icons'), { recursive: true });
    mkdirSync(join(distDir, '.vite'), { recursive: true });
    writeFileSync(join(distDir, 'index.html'), '<!doctype html><div id="root"></div>');
    const script = join(distDir, 'assets', 'index-3f2a9c1b.js');
    writeFileSync(script, SCRIPT);
    writeFileSync(`${script}.br`, brotliCompressSync(SCRIPT));
    writeFileSync(`${script}.gz`, gzipSync(SCRIPT));
    writeFileSync(join(distDir, 'icons', 'icon-192.png'), PNG);
    writeFileSync(join(distDir, 'sw.js'), 'self.skipWaiting()');
    writeFileSync(join(distDir, '.vite', 'manifest.json'), '{"secret":"layout"}');
    t = await createTestApp({ config: { webDistDir: distDir } });
  });
  afterAll(async () => {
    await t.close();
    rmSync(distDir, { recursive: true, force: true });
  });

  const get = (url: string, headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url, headers });

  it('sends the brotli, gzip or plain copy by Accept-Encoding, each the same script, cached for a year', async () => {
    const br = await get('/assets/index-3f2a9c1b.js', { 'accept-encoding': 'gzip, deflate, br' });
    expect(br.statusCode).toBe(200);
    expect(br.headers).toMatchObject({ 'content-encoding': 'br', 'content-type': 'text/javascript; charset=utf-8', vary: 'Origin, Accept-Encoding', 'cache-control': 'public, max-age=31536000, immutable' });
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(SCRIPT);

    const gz = await get('/assets/index-3f2a9c1b.js', { 'accept-encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.rawPayload).toString()).toBe(SCRIPT);

    const plain = await get('/assets/index-3f2a9c1b.js', { 'accept-encoding': 'identity' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(SCRIPT);
    // One entity in three encodings: one strong tag.
    expect(new Set([br.headers.etag, gz.headers.etag, plain.headers.etag]).size).toBe(1);
    expect(br.headers.etag).toMatch(/^"[\w-]{27}"$/);
  });

  it('answers 304 to a matching If-None-Match, and HEAD with the headers only', async () => {
    const { etag } = (await get('/assets/index-3f2a9c1b.js')).headers;
    const again = await get('/assets/index-3f2a9c1b.js', { 'if-none-match': String(etag) });
    expect(again.statusCode).toBe(304);
    expect(again.rawPayload).toHaveLength(0);
    const head = await t.app.inject({ method: 'HEAD', url: '/assets/index-3f2a9c1b.js', headers: { 'accept-encoding': 'br' } });
    expect(head.statusCode).toBe(200);
    expect(head.headers['content-encoding']).toBe('br');
    expect(head.rawPayload).toHaveLength(0);
  });

  it('sends a file without compressed copies as it is, with its type, even to a client that prefers brotli', async () => {
    const icon = await get('/icons/icon-192.png', { 'accept-encoding': 'br' });
    expect(icon.statusCode).toBe(200);
    expect(icon.headers['content-encoding']).toBeUndefined();
    expect(icon.headers['content-type']).toBe('image/png');
    expect(icon.rawPayload.equals(PNG)).toBe(true);
    expect(icon.headers['cache-control']).toBe('public, max-age=300');
  });

  it('has the service worker and the app shell re-checked on every visit', async () => {
    expect((await get('/sw.js')).headers['cache-control']).toBe('no-cache');
    const shell = await get('/index.html');
    expect(shell.statusCode).toBe(200);
    expect(shell.headers['cache-control']).toBe('no-cache');
    expect(shell.body).toContain('id="root"');
  });

  it('keeps the build manifest and unknown files private: 404', async () => {
    expect((await get('/.vite/manifest.json')).statusCode).not.toBe(200);
    expect((await get('/.vite/manifest.json')).body).not.toContain('secret');
    expect((await get('/assets/missing-00000000.js')).statusCode).toBe(404);
  });
});
