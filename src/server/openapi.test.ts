/**
 * The API contract is enforced and published: every route declares its request and response
 * schemas (zod, in src/shared/contracts), and docs/openapi.json is what the code generates.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPENAPI_ENV, OPENAPI_FILE, openApiText } from '#server/openapi.ts';
import { createTestApp, type TestApp } from '#tests/setup/test-app.ts';

type Operation = { parameters?: { in: string; name: string }[]; requestBody?: unknown; responses?: Record<string, { content?: Record<string, { schema?: unknown }> }> };
type Document = { paths: Record<string, Record<string, Operation>> };

/** Replies that are not JSON (audio, CSV, Prometheus text) or have no body (204). */
const NON_JSON_SUCCESS = new Set([
  // better-auth's own endpoints, forwarded unchanged (their bodies and replies are better-auth's; see the route's description).
  'GET /api/auth/{*}', 'POST /api/auth/{*}',
  'DELETE /api/favourites/{id}', 'GET /metrics', 'GET /media/meditations/{key}', 'GET /api/admin/waitlist/export', 'GET /api/admin/meditations/{id}/download', 'DELETE /api/reminders/devices',
  // The reminder as a text/calendar file, and the mail client's one-click unsubscribe (RFC 8058: 204, no body).
  'GET /api/reminders/calendar.ics', 'POST /api/reminders/email/one-click',
  // Sign in with Apple on Android's two steps in the system browser: each answers a redirect (decision 0071).
  'GET /api/native/apple/start', 'GET /api/native/apple/return']);
/** Writes whose whole request is the path (no body to describe), and the multipart upload, which parses its own body. */
const BODYLESS_WRITES = new Set(['POST /api/billing/restore', 'DELETE /api/favourites/{id}', 'PUT /api/favourites/{id}', 'DELETE /api/admin/waitlist', 'DELETE /api/admin/roles/{id}', 'DELETE /api/admin/meditations/{id}', 'POST /api/billing/portal', 'POST /api/admin/waitlist/test-data', 'POST /api/admin/test-accounts', 'POST /api/admin/test-accounts/reset-passwords', 'POST /api/billing/sandbox/sessions/{id}/complete', 'POST /api/programmes/{slug}/enrolment/open-next',
  // Read as their own bodies: the multipart upload, and Stripe's signed bytes (documented by Stripe).
  'POST /api/admin/meditations', 'POST /api/billing/stripe/webhook', 'POST /api/auth/{*}']);

let t: TestApp;
let document: Document;
beforeAll(async () => {
  t = await createTestApp({ env: { ...OPENAPI_ENV } });
  document = JSON.parse(openApiText(t.app)) as Document;
});
afterAll(() => t.close());

const operations = () => Object.entries(document.paths).flatMap(([path, ops]) => Object.entries(ops).map(([method, op]) => ({ id: `${method.toUpperCase()} ${path}`, path, method, op })));

describe('API contracts', () => {
  it('docs/openapi.json is what the contracts generate (run `npm run openapi` after changing a contract)', () => {
    expect(readFileSync(OPENAPI_FILE, 'utf8')).toBe(openApiText(t.app));
  });

  it('every JSON route declares the schema of its successful reply', () => {
    const missing = operations()
      .filter(({ id }) => !NON_JSON_SUCCESS.has(id))
      .filter(({ op }) => !Object.entries(op.responses ?? {}).some(([status, r]) => status.startsWith('2') && r.content?.['application/json']?.schema))
      .map(({ id }) => id);
    expect(missing).toEqual([]);
  });

  it('every path parameter and every write body has a request schema', () => {
    const missing: string[] = [];
    for (const { id, path, method, op } of operations()) {
      for (const name of [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1])) {
        if (!op.parameters?.some((p) => p.in === 'path' && p.name === name)) missing.push(`${id}: path parameter ${name}`);
      }
      if (['post', 'put', 'patch'].includes(method) && !BODYLESS_WRITES.has(id) && !op.requestBody) missing.push(`${id}: body`);
    }
    expect(missing).toEqual([]);
  });
});

/** Routes anyone may call (each answers a stranger on its own terms: public data, a signature check, a form). */
const PUBLIC = new Set([
  'GET /api/health', 'GET /api/ready', 'GET /api/openapi.json', 'GET /.well-known/apple-app-site-association', 'GET /.well-known/assetlinks.json', 'GET /metrics', 'GET /api/auth/{*}', 'POST /api/auth/{*}', 'GET /api/me', 'GET /api/auth-providers',
  'GET /api/meditations', 'GET /api/meditations/{id}', 'GET /api/subscription', 'POST /api/billing/stripe/webhook', 'POST /api/iap/notifications', 'POST /api/revenuecat/webhook',
  'GET /media/meditations/{key}', 'POST /api/waitlist', 'GET /api/admin/status',
  // The free samples play for anyone (decision 0025); every other meditation answers a stranger 401 (billing.test.ts).
  'GET /api/meditations/{id}/playback',
  // Searching the catalogue's transcripts is as public as the catalogue (ids only).
  'GET /api/search/meditations',
  // A reminder's "Turn off reminders": the token it carries says whose, signed (reminders.test.ts).
  'POST /api/reminders/off',
  // An e-mail reminder's turn-off (its page's button, the mail client's one-click): the signed token in the mail says whose (reminders-email.test.ts).
  'POST /api/reminders/email/off', 'POST /api/reminders/email/one-click',
  // A shared journal entry, sealed: the link's id and the key in its fragment are the permission (journal-share.test.ts).
  'GET /api/shared/{id}',
  // Programmes are as public as the catalogue they are made of; progress and enrolment are not (programmes.test.ts).
  'GET /api/programmes', 'GET /api/programmes/{slug}',
  // Sign in with Apple on Android (decision 0071): the system browser's two steps (Apple's answer, and the
  // session better-auth made there, are what they act on) and the app's redeem (the one-time code and the
  // verifier of its proof key are the permission; apple-on-android.test.ts).
  'GET /api/native/apple/start', 'GET /api/native/apple/return', 'POST /api/native/apple/redeem',
]);

describe('GET /api/openapi.json (issue 19, item 7)', () => {
  it('publishes the committed document to anyone, cached and conditional, itself included', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/openapi.json', headers: { 'accept-encoding': 'identity' } });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(response.headers['cache-control']).toBe('public, max-age=300');
    expect(response.body).toBe(readFileSync(OPENAPI_FILE, 'utf8'));
    const published = response.json<Document>();
    expect(Object.keys(published.paths)).toContain('/api/openapi.json');
    expect(Object.keys(published.paths)).toContain('/api/journal/records/{id}');
    const again = await t.app.inject({ method: 'GET', url: '/api/openapi.json', headers: { 'if-none-match': String(response.headers.etag) } });
    expect(again.statusCode).toBe(304);
  });
});

describe('who is asking comes first', () => {
  it('every other route refuses a stranger with 401 before it reads the body or the query', async () => {
    const answered: string[] = [];
    for (const { id, path, method } of operations().filter(({ id }) => !PUBLIC.has(id))) {
      const url = path.replace(/\{[^}]+\}/g, 'not-a-valid-id') + '?tz=%00&severity=nonsense';
      const response = await t.app.inject({ method: method.toUpperCase() as 'GET', url, headers: { origin: t.config.publicUrl, 'content-type': 'application/json' }, payload: method === 'get' ? undefined : '{"nonsense":true}' });
      if (response.statusCode !== 401) answered.push(`${id} → ${response.statusCode}`);
    }
    expect(answered).toEqual([]);
  });
});
