/**
 * The prepared lane answers the catalogue's prepared reads and liveness before Fastify, and must
 * be indistinguishable from Fastify's route: same status, bytes and headers, counted by the same
 * brake, logged and measured alike, never stale after an edit, and never taking a request it is
 * not sure of (those go to Fastify, whose hooks answer as before).
 */
import type { AddressInfo } from 'node:net';
import type { IncomingHttpHeaders } from 'node:http';
import { randomInt } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import { createPreparedLane, type LaneDeps } from '#server/prepared-lane.ts';
import { buildMeditation } from '#tests/factories.ts';
import { origin, createSignedInStaff } from '#tests/setup/auth-helpers.ts';
import { rawRequest, type RawRequest } from '#tests/setup/raw-http.ts';
import { redisAnswers } from '#tests/setup/redis.ts';
import { openForSuite } from '#tests/setup/suite-resource.ts';
import { captureLog, createTestApp, type TestApp } from '#tests/setup/test-app.ts';
import { createTestDatabase } from '#tests/setup/test-db.ts';

const LOCAL_REDIS = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

// An app per test (its settings, its brake, its counts), over one database: each test's rows are its own.
const database = openForSuite(() => createTestDatabase('pglite'));
const opened: TestApp[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((t) => t.close()));
});

async function listening(options: Parameters<typeof createTestApp>[0] = {}): Promise<TestApp & { port: number }> {
  const t = await createTestApp({ database, ...options });
  opened.push(t);
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  return Object.assign(t, { port: (t.app.server.address() as AddressInfo).port });
}

const get = (t: { port: number }, path: string, more: Omit<RawRequest, 'path'> = {}) => rawRequest(t.port, { method: 'GET', path, ...more });

/** Headers that differ between any two responses (time, connection bookkeeping, the brake's running count). */
const VOLATILE = new Set(['date', 'connection', 'keep-alive', 'x-ratelimit-remaining', 'x-ratelimit-reset']);
// Fastify adds `content-length: 0` to a 304, which RFC 9110 §8.6 forbids (it must be the 200's length
// or absent); the lane leaves it out, so a 304's length is not compared.
const stable = ({ status, headers }: { status: number; headers: IncomingHttpHeaders }) =>
  Object.fromEntries(Object.entries(headers).filter(([name]) => !VOLATILE.has(name) && !(status === 304 && name === 'content-length')));

describe('the prepared lane', () => {
  it('answers prepared reads itself with exactly what the route sends, in every encoding, conditionally and for HEAD', async () => {
    const t = await listening();
    const card = await buildMeditation(t.database.db, { title: 'Lane light', category: 'sleeping', categories: ['sleeping'] });
    const targets = ['/api/meditations?category=all', '/api/meditations?category=sleeping', `/api/meditations/${card.id}`, '/api/health'];
    const variants: Record<string, string>[] = [{}, { 'accept-encoding': 'gzip, deflate, br' }, { 'accept-encoding': 'gzip' }, { 'accept-encoding': 'identity' }];

    for (const target of targets) {
      // The first read is the route's: it prepares the answer the lane then finds.
      t.app.preparedLane.enabled = false;
      const byRoute = await get(t, target);
      expect(byRoute.status, target).toBe(200);
      for (const headers of [...variants, { 'if-none-match': String(byRoute.headers.etag) }]) {
        for (const method of ['GET', 'HEAD']) {
          t.app.preparedLane.enabled = false;
          const route = await get(t, target, { method, headers });
          t.app.preparedLane.enabled = true;
          const servedBefore = t.app.preparedLane.served;
          const lane = await get(t, target, { method, headers });
          expect(t.app.preparedLane.served, `${method} ${target} ${JSON.stringify(headers)} by the lane`).toBe(servedBefore + 1);
          expect({ status: lane.status, headers: stable(lane), text: lane.text }).toEqual({ status: route.status, headers: stable(route), text: route.text });
          expect(Number(lane.headers['x-ratelimit-remaining'])).toBeLessThan(Number(route.headers['x-ratelimit-remaining']));
        }
      }
    }
    // The security headers and the brake's are there (not only "equal to the route's").
    const lane = await get(t, '/api/meditations?category=all', { headers: { 'accept-encoding': 'br' } });
    expect(lane.headers).toMatchObject({ 'content-security-policy': expect.stringContaining("default-src 'self'"), 'x-content-type-options': 'nosniff', 'x-ratelimit-limit': expect.any(String), 'content-encoding': 'br', vary: 'Origin, Accept-Encoding' });
  });

  it('leaves to Fastify every request it is not sure of', async () => {
    const t = await listening();
    const card = await buildMeditation(t.database.db, { title: 'Not for the lane', category: 'morning', categories: ['morning'] });
    const unprepared = await buildMeditation(t.database.db, { title: 'Never read', category: 'morning', categories: ['morning'] });
    await get(t, '/api/meditations?category=all');
    await get(t, `/api/meditations/${card.id}`);
    const servedBefore = t.app.preparedLane.served;

    const refused = [
      await get(t, `/api/meditations/./${card.id}`), // not in normal form: the canonical-target hook refuses it
      await get(t, `/api/meditations/${card.id}%00`),
      await get(t, '/api/meditations?category=all&category=morning'),
      await get(t, '/api/meditations?category=%61ll'),
      await get(t, `/api/meditations/${card.id}`, { method: 'POST', body: {} }),
      await get(t, '/api/health', { headers: { 'content-length': '2' }, body: {} }),
      await get(t, `/api/meditations/${unprepared.id}`), // not prepared yet: the route loads it
      await get(t, '/api/meditations?category=no-such-list'),
    ];
    expect(refused.map((r) => r.status)).toEqual([400, 400, 400, 200, 404, 200, 200, 200]);
    expect(t.app.preparedLane.served).toBe(servedBefore);
    // Once the route has prepared it, the card is the lane's.
    await get(t, `/api/meditations/${unprepared.id}`);
    expect(t.app.preparedLane.served).toBe(servedBefore + 1);
  });

  it.for([['in memory', false], ['in Redis', true]] as const)('counts in the global brake (%s): past a client’s share Fastify refuses it, lane or not', async ([, redis], { skip }) => {
    if (redis && !(await redisAnswers(LOCAL_REDIS))) skip(`no Redis at ${LOCAL_REDIS}`);
    const t = await listening({ env: { GLOBAL_RATE_LIMIT_PER_MINUTE: '4', ...(redis ? { REDIS_URL: LOCAL_REDIS } : {}) } });
    // An address of its own per run, so runs sharing one Redis never count each other.
    const from = `127.0.${randomInt(1, 255)}.${randomInt(1, 255)}`;
    // The fail-fast Redis connection may still be connecting: until it is, the brake skips (and so does the lane).
    if (redis) await vi.waitFor(async () => expect((await get(t, '/api/ready', { from: '127.0.0.2' })).status).toBe(200), { timeout: 5000 });
    const answers = [];
    for (let i = 0; i < 6; i++) answers.push(await get(t, '/api/health', { from }));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 429, 429]);
    expect(answers.slice(0, 4).map((a) => a.headers['x-ratelimit-remaining'])).toEqual(['3', '2', '1', '0']);
    expect(t.app.preparedLane.served).toBe(4);
    expect(answers[4]?.json().error.code).toBe('rate-limit/exceeded');
    // Another client has its own share.
    expect((await get(t, '/api/health', { from: '127.0.0.8' })).status).toBe(200);
  });

  it('serves the build’s files, hashed ones without counting them (as the brake exempts them)', async () => {
    const dist = mkdtempSync(join(tmpdir(), 'hm-lane-dist-'));
    onTestFinished(() => rmSync(dist, { recursive: true, force: true }));
    mkdirSync(join(dist, 'assets'));
    writeFileSync(join(dist, 'index.html'), '<!doctype html><title>Harbour Mind</title>');
    writeFileSync(join(dist, 'assets', 'entry-3f2a9c1b.js'), 'console.log("calm")');
    writeFileSync(join(dist, 'manifest.webmanifest'), '{"name":"Harbour Mind"}');
    const t = await listening({ env: { GLOBAL_RATE_LIMIT_PER_MINUTE: '3' }, config: { webDistDir: dist } });
    const from = '127.0.0.21';
    const scripts = [];
    for (let i = 0; i < 5; i++) scripts.push(await get(t, '/assets/entry-3f2a9c1b.js', { from }));
    expect(scripts.map((r) => [r.status, r.text, r.headers['x-ratelimit-limit']])).toEqual(Array.from({ length: 5 }, () => [200, 'console.log("calm")', undefined]));
    expect(scripts[0]?.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    // A script carries what a subresource needs, not a document's policies (issue 39: ~750 bytes a chunk).
    expect(scripts[0]?.headers).toMatchObject({ 'x-content-type-options': 'nosniff', 'cross-origin-resource-policy': 'same-origin' });
    for (const name of ['content-security-policy', 'x-frame-options', 'cross-origin-opener-policy', 'referrer-policy', 'x-xss-protection']) expect(scripts[0]?.headers[name], name).toBeUndefined();
    // Other files count: the share of 3 is all there for them.
    const manifests = [];
    for (let i = 0; i < 4; i++) manifests.push((await get(t, '/manifest.webmanifest', { from })).status);
    expect(manifests).toEqual([200, 200, 200, 429]);
    expect(t.app.preparedLane.served).toBe(8);
    // Files outside /assets/ (the manifest, the service worker, the shell) keep the full set.
    expect(String((await get(t, '/manifest.webmanifest', { from: '127.0.0.23' })).headers['content-security-policy'])).toContain("default-src 'self'");
    // Exactly what the route sends.
    t.app.preparedLane.enabled = false;
    const route = await get(t, '/assets/entry-3f2a9c1b.js', { from: '127.0.0.22' });
    t.app.preparedLane.enabled = true;
    const lane = await get(t, '/assets/entry-3f2a9c1b.js', { from: '127.0.0.22' });
    expect({ status: lane.status, headers: stable(lane), text: lane.text }).toEqual({ status: route.status, headers: stable(route), text: route.text });
  });

  it('counts the client behind TRUST_PROXY_HOPS, as Fastify’s request.ip does, not the proxy', async () => {
    const t = await listening({ env: { GLOBAL_RATE_LIMIT_PER_MINUTE: '2', TRUST_PROXY_HOPS: '1' } });
    const via = (client: string) => get(t, '/api/health', { headers: { 'x-forwarded-for': client } });
    expect([(await via('203.0.113.5')).status, (await via('203.0.113.5')).status, (await via('203.0.113.5')).status]).toEqual([200, 200, 429]);
    expect((await via('203.0.113.6')).status).toBe(200);
    expect(t.app.preparedLane.served).toBe(3);
  });

  it('never serves a listing or card an editor has just changed', async () => {
    const t = await listening();
    const card = await buildMeditation(t.database.db, { title: 'Before the edit', category: 'sleeping', categories: ['sleeping'] });
    const admin = await createSignedInStaff(t, 'lane-editor@example.com', 'admin');
    for (let i = 0; i < 2; i++) {
      await get(t, '/api/meditations?category=all');
      await get(t, `/api/meditations/${card.id}`);
    }
    expect(t.app.preparedLane.served).toBe(2);
    const edit = await t.app.inject({ method: 'PATCH', url: `/api/admin/meditations/${card.id}`, headers: { cookie: admin.cookie, ...origin(t) }, payload: { title: 'After the edit' } });
    expect(edit.statusCode).toBe(200);
    const list = await get(t, '/api/meditations?category=all');
    const one = await get(t, `/api/meditations/${card.id}`);
    expect(list.text).toContain('After the edit');
    expect(list.text).not.toContain('Before the edit');
    expect(one.text).toContain('After the edit');
  });

  it('sums up its reads in one log line (routes, statuses, busiest clients; never an id) and counts the request metric', async () => {
    const log = captureLog();
    const t = await listening({ logger: { level: 'info', stream: log.stream } });
    const card = await buildMeditation(t.database.db, { title: 'Logged', category: 'sleeping', categories: ['sleeping'] });
    await get(t, `/api/meditations/${card.id}`); // the route's, logged as ever
    t.app.preparedLane.flushLog();
    const before = log.lines.length;
    await get(t, `/api/meditations/${card.id}`, { from: '127.0.0.9' });
    await get(t, `/api/meditations/${card.id}`, { from: '127.0.0.9' });
    await get(t, '/api/health', { from: '127.0.0.10' });
    expect(t.app.preparedLane.served).toBe(3);
    t.app.preparedLane.flushLog();
    type Summary = { msg: string; reads: number; routes: Record<string, number>; busiest: { ip: string; reads: number }[] };
    const lines = log.lines.slice(before).map((line) => JSON.parse(line) as Summary);
    // Summaries only, never a line per read. Usually one; two when the once-a-second tally turned
    // during the reads (it did, on a loaded machine), so the figures are added up across them.
    expect(lines.map((line) => line.msg).every((msg) => msg === 'prepared reads')).toBe(true);
    expect(lines.length).toBeGreaterThanOrEqual(1);
    expect(lines.length).toBeLessThanOrEqual(2);
    const add = (into: Record<string, number>, key: string, n: number) => ({ ...into, [key]: (into[key] ?? 0) + n });
    expect(lines.reduce((n, line) => n + line.reads, 0)).toBe(3);
    expect(lines.reduce<Record<string, number>>((all, line) => Object.entries(line.routes).reduce((acc, [route, n]) => add(acc, route, n), all), {})).toEqual({
      'GET /api/meditations/:id 200': 2,
      'GET /api/health 200': 1,
    });
    expect(lines.reduce<Record<string, number>>((all, line) => line.busiest.reduce((acc, { ip, reads }) => add(acc, ip, reads), all), {})).toEqual({ '127.0.0.9': 2, '127.0.0.10': 1 });
    if (lines.length === 1) expect(lines[0]).toMatchObject({ clients: 2, busiest: [{ ip: '127.0.0.9', reads: 2 }, { ip: '127.0.0.10', reads: 1 }] });
    expect(log.lines.join('')).not.toContain(card.id);
    const after = log.lines.length;
    t.app.preparedLane.flushLog();
    expect(log.lines.length).toBe(after); // nothing new: no line
    const metrics = await get(t, '/metrics');
    expect(metrics.text).toMatch(/http_request_duration_seconds_count\{method="GET",route="\/api\/meditations\/:id",status="200"\} 3/);
  });
});

describe('the prepared lane on its own', () => {
  const answer = { route: '/api/health', prepared: { contentType: 'application/json', etag: '"x"', identity: Buffer.from('{}') }, cacheControl: 'no-store' };
  const deps = (over: Partial<LaneDeps> = {}): LaneDeps => ({
    lookups: [(target) => (target === '/api/health' ? answer : undefined)],
    refusing: () => false,
    clientIp: () => '127.0.0.1',
    brake: undefined,
    securityHeaders: {},
    observe: () => {},
    log: undefined,
    ...over,
  });
  const request = { method: 'GET', url: '/api/health', headers: {} } as never;
  const response = () => ({ writeHead: vi.fn(), end: vi.fn() }) as never;

  it('gives Fastify the request while the server drains or sheds, or before it is opened', () => {
    const lane = createPreparedLane();
    const next = vi.fn();
    lane.handler(next)(request, response());
    lane.open(deps({ refusing: () => true }));
    lane.handler(next)(request, response());
    expect(next).toHaveBeenCalledTimes(2);
    expect(lane.served).toBe(0);
    lane.open(deps());
    lane.handler(next)(request, response());
    expect(next).toHaveBeenCalledTimes(2);
    expect(lane.served).toBe(1);
  });

  it('gives Fastify the request when the brake refuses (over the share, or a counter it could not read)', async () => {
    const lane = createPreparedLane();
    const next = vi.fn();
    lane.open(deps({ brake: { count: (_ip, done) => done({ pass: false }) } }));
    lane.handler(next)(request, response());
    lane.open(deps({ brake: { count: (_ip, done) => setTimeout(() => done({ pass: false }), 5) } }));
    lane.handler(next)(request, response());
    await vi.waitFor(() => expect(next).toHaveBeenCalledTimes(2), { timeout: 10_000 });
    expect(lane.served).toBe(0);
  });
});
