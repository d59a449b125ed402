/**
 * Issue 33, rows 5, 6, 9 and 12: what a prober sees of the shared read paths. Case variants of a
 * card id must not grow the prepared cache; a reply that differs by Origin must say so to caches;
 * a 404 line must not carry a token from the path; /metrics must want the token behind any proxy.
 * One app for the file, over a real socket where the prepared lane matters (app.inject skips it).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCatalogueCache } from '#server/features/catalogue/catalogue-cache.ts';
import { NATIVE_APP_ORIGINS } from '#server/native-cors.ts';
import { buildMeditation } from '#tests/factories.ts';
import { listen, rawRequest } from '#tests/setup/raw-http.ts';
import { captureLog, createTestApp, type TestApp } from '#tests/setup/test-app.ts';

const APP_ORIGIN = NATIVE_APP_ORIGINS[0];

/** The Vary header's fields, lower case. */
const varyOf = (value: string | string[] | undefined) =>
  String(value ?? '')
    .split(',')
    .map((f) => f.trim().toLowerCase())
    .filter(Boolean);

describe('probing the shared read paths', () => {
  let t: TestApp;
  let port: number;
  let webDir: string;
  const log = captureLog();
  beforeAll(async () => {
    // A minimal web build, so unknown page routes take the app-shell 404 path as in production.
    webDir = mkdtempSync(join(tmpdir(), 'hm-probe-web-'));
    writeFileSync(join(webDir, 'index.html'), '<!doctype html><html><head></head><body><div id="root"></div></body></html>');
    t = await createTestApp({ logger: { level: 'trace', stream: log.stream }, config: { webDistDir: webDir } });
    port = await listen(t);
  });
  afterAll(async () => {
    await t.close();
    rmSync(webDir, { recursive: true, force: true });
  });

  const get = (path: string, headers: Record<string, string> = {}) => rawRequest(port, { method: 'GET', path, headers });

  describe('row 5: the prepared cache', () => {
    it('answers every spelling of a card id from one entry: case variants never become entries of their own', async () => {
      const card = await buildMeditation(t.database.db);
      const lower = `/api/meditations/${card.id}`;
      const upper = `/api/meditations/${card.id.toUpperCase()}`;
      const first = await get(lower);
      expect(first.status).toBe(200);
      // Made once by the route; from now on the lane answers the canonical spelling itself.
      const served = t.app.preparedLane.served;
      expect((await get(lower)).status).toBe(200);
      expect(t.app.preparedLane.served).toBe(served + 1);

      // The same card in capitals: the same answer, from the same entry.
      const variant = await get(upper);
      expect(variant.status).toBe(200);
      expect(variant.headers.etag).toBe(first.headers.etag);
      expect(variant.json<{ meditation: { id: string } }>().meditation.id).toBe(card.id);
      // Had the capitals made an entry of their own, the lane would now answer them from it.
      const before = t.app.preparedLane.served;
      for (let i = 0; i < 3; i += 1) expect((await get(upper)).status).toBe(200);
      // Only its first letter in capitals (the id's first characters may all be digits, and a variant
      // that equals the canonical spelling is rightly answered by the lane: that was this test's flake).
      const mixed = `/api/meditations/${card.id.replace(/[a-f]/, (letter) => letter.toUpperCase())}`;
      expect(mixed).not.toBe(lower);
      expect((await get(mixed)).status).toBe(200);
      expect(t.app.preparedLane.served).toBe(before);
    });

    it('holds at most its bound of entries, dropping the least recently used', async () => {
      const cache = createCatalogueCache({ maxEntries: 3 });
      const load = (key: string) => cache.get(key, () => Promise.resolve({ key }));
      for (const key of ['a', 'b', 'c']) await load(key);
      // 'a' read again: 'b' is now the oldest.
      await load('a');
      await load('d');
      expect(cache.size).toBe(3);
      expect(cache.peek('a')).toBeDefined();
      expect(cache.peek('b')).toBeUndefined();
      for (let i = 0; i < 50; i += 1) await load(`flood-${i}`);
      expect(cache.size).toBe(3);
    });
  });

  describe('row 6: Vary: Origin on cacheable replies', () => {
    it('says Vary: Origin beside Accept-Encoding on every cacheable reply, to the apps and to browsers alike', async () => {
      const card = await buildMeditation(t.database.db);
      // Prepared answers (cards, listings, build files, OpenAPI); the others below (an unknown listing slug,
      // transcript search) vary by encoding only when they are big enough to be compressed.
      const targets = [`/api/meditations/${card.id}`, '/api/meditations?category=all', '/api/meditations?category=mindfulness', '/index.html', '/api/openapi.json'];
      for (const path of targets) {
        for (const headers of [{ origin: APP_ORIGIN }, {}, { 'accept-encoding': 'br, gzip' }, { origin: APP_ORIGIN, 'accept-encoding': 'gzip' }] as Record<string, string>[]) {
          // Twice: the first read is the route's, the second (when it has no Origin) the prepared lane's.
          for (let i = 0; i < 2; i += 1) {
            const res = await get(path, headers);
            expect(res.status, path).toBe(200);
            const vary = varyOf(res.headers.vary);
            expect(vary, `${path} ${JSON.stringify(headers)}`).toContain('origin');
            expect(vary, `${path} ${JSON.stringify(headers)}`).toContain('accept-encoding');
            expect(new Set(vary).size, `${path}: no field twice`).toBe(vary.length);
          }
        }
        const fromApp = await get(path, { origin: APP_ORIGIN });
        expect(fromApp.headers['access-control-allow-origin'], path).toBe(APP_ORIGIN);
      }
      for (const path of ['/api/meditations?category=no-such-slug', '/api/search/meditations?q=calm']) {
        for (const headers of [{ origin: APP_ORIGIN }, {}] as Record<string, string>[]) {
          const res = await get(path, headers);
          expect(res.headers['cache-control'], path).toMatch(/public/);
          expect(varyOf(res.headers.vary), `${path} ${JSON.stringify(headers)}`).toContain('origin');
        }
      }
      // A 304 names the same Vary as the 200 it stands for.
      const card200 = await get(`/api/meditations/${card.id}`, { origin: APP_ORIGIN });
      const revalidated = await get(`/api/meditations/${card.id}`, { origin: APP_ORIGIN, 'if-none-match': String(card200.headers.etag) });
      expect(revalidated.status).toBe(304);
      expect(varyOf(revalidated.headers.vary)).toEqual(expect.arrayContaining(['origin', 'accept-encoding']));
    });
  });

  describe('row 9: 404 lines', () => {
    it('never writes a token from the path into any log line, the not-found lines included', async () => {
      const token = 'Zq8vK2mW4nR7tY1uP3sA6dF9';
      const paths = [`/reset-password/${token}`, `/api/nope/${token}`, `/api/admin/nope/${token}`, `/media/nope/${token}`];
      const from = log.lines.length;
      for (const path of paths) expect((await get(path)).status, path).toBe(404);
      // A form post to an unknown route takes the API's not-found branch too.
      expect((await rawRequest(port, { method: 'POST', path: `/nope/${token}`, body: {} })).status).toBe(404);
      const written = log.lines.slice(from);
      expect(written.some((line) => /not found|404/.test(line))).toBe(true);
      for (const line of written) expect(line).not.toContain(token);
      expect(written.join('')).toContain(':redacted');
    });
  });

  describe('row 12: /metrics behind a proxy', () => {
    it('refuses a loopback connection that carries any proxy header unless it brings the token', async () => {
      expect((await t.app.inject({ method: 'GET', url: '/metrics', remoteAddress: '127.0.0.1' })).statusCode).toBe(200);
      const proxied = [
        { 'x-real-ip': '203.0.113.7' },
        { 'x-forwarded-for': '203.0.113.7' },
        { forwarded: 'for=203.0.113.7' },
        { 'x-forwarded-host': 'harbour.example' },
        { 'x-forwarded-proto': 'https' },
        { via: '1.1 nginx' },
        { 'true-client-ip': '203.0.113.7' },
        { 'cf-connecting-ip': '203.0.113.7' },
      ];
      for (const headers of proxied) {
        expect((await t.app.inject({ method: 'GET', url: '/metrics', remoteAddress: '127.0.0.1', headers })).statusCode, JSON.stringify(headers)).toBe(403);
      }
    });
  });
});
