/**
 * Cross-site request forgery against the app's own routes, over real HTTP: a cookie-borne,
 * state-changing request counts only when it comes from our own origin.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SESSION_TRANSPORT_HEADER } from '#shared/constants.ts';
import { securityAuditLog } from '#server/db/schema/security.ts';
import { subscribers } from '#server/db/schema/billing.ts';
import { syncSubscription } from '#server/features/billing/subscriptions.service.ts';
import { createSignedInUser } from '#tests/setup/auth-helpers.ts';
import { listen, rawRequest } from '#tests/setup/raw-http.ts';
import { createTestApp, type TestApp } from '#tests/setup/test-app.ts';
import { PGLITE_ONLY } from '#tests/setup/test-db.ts';

const DAY = 86_400_000;

describe.each(PGLITE_ONLY)('cross-site request forgery (%s)', (kind) => {
  let t: TestApp;
  let port: number;
  let cookie: string;
  let userId: string;
  beforeAll(async () => {
    t = await createTestApp({ kind });
    port = await listen(t);
    ({ cookie, userId } = await createSignedInUser(t, 'csrf@example.com', 'calm-waters-1'));
    await syncSubscription({ db: t.database.db, userId, snapshot: { provider: 'sandbox', status: 'active', plan: 'monthly', currentPeriodEnd: new Date(Date.now() + 20 * DAY) } });
  });
  afterAll(() => t.close());

  const cancelFlag = async () => (await t.database.db.select().from(subscribers).where(eq(subscribers.userId, userId)))[0].cancelAtPeriodEnd;
  const cancel = (headers: Record<string, string>, body: unknown = { cancel: true }) => rawRequest(port, { path: '/api/billing/cancel', headers: { cookie, ...headers }, body });

  it('refuses a cookie-borne cancel from another origin, a sibling site, another port, or with no origin at all', async () => {
    const forged: Array<Record<string, string>> = [
      { origin: 'https://evil.example' },
      { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' },
      { origin: 'http://127.0.0.1:1', 'sec-fetch-site': 'same-site' },
      { 'sec-fetch-site': 'same-site' },
      { origin: 'null' },
      {},
    ];
    for (const headers of forged) {
      const res = await cancel(headers);
      expect(res.status, JSON.stringify(headers)).toBe(403);
      expect(res.json().error.code).toBe('security/cross-site-request');
    }
    // An empty body from another origin no longer means "cancel".
    expect((await cancel({ origin: 'https://evil.example' }, {})).status).toBe(403);
    expect(await cancelFlag()).toBe(false);
    const rejected = await t.database.db.select().from(securityAuditLog).where(eq(securityAuditLog.eventType, 'csrf_rejected'));
    expect(rejected.length).toBeGreaterThanOrEqual(forged.length);
  });

  it('refuses every other state-changing route the same way', async () => {
    const routes: Array<[string, string, unknown]> = [
      ['POST', '/api/billing/checkout', { plan: 'monthly' }],
      ['POST', '/api/billing/portal', {}],
      ['POST', '/api/sessions', {}],
      ['PUT', '/api/practice/preferences', { showStreaks: false }],
      ['PUT', '/api/favourites/00000000-0000-4000-8000-000000000000', {}],
      ['DELETE', '/api/favourites/00000000-0000-4000-8000-000000000000', undefined],
      ['POST', '/api/admin/setup', { token: 'x' }],
      ['POST', '/api/iap/validate-receipt', {}],
    ];
    for (const [method, path, body] of routes) {
      const res = await rawRequest(port, { method, path, headers: { cookie, origin: 'https://evil.example' }, body });
      expect(res.status, `${method} ${path}`).toBe(403);
    }
  });

  it('accepts the same request from our own pages', async () => {
    expect((await cancel({ origin: t.config.publicUrl })).status).toBe(200);
    expect(await cancelFlag()).toBe(true);
    expect((await cancel({ 'sec-fetch-site': 'same-origin' }, { cancel: false })).status).toBe(200);
    expect(await cancelFlag()).toBe(false);
  });

  it('requires cancel to be said: an empty body changes nothing', async () => {
    const res = await cancel({ origin: t.config.publicUrl }, {});
    expect(res.status).toBe(400);
    expect(await cancelFlag()).toBe(false);
  });

  it('lets a native app with only a bearer token through, whatever its origin', async () => {
    const signIn = await rawRequest(port, {
      path: '/api/auth/sign-in/email',
      headers: { origin: t.config.publicUrl, [SESSION_TRANSPORT_HEADER]: 'bearer' },
      body: { email: 'csrf@example.com', password: 'calm-waters-1' },
      from: '127.0.0.41',
    });
    const bearer = String(signIn.headers['set-auth-token']);
    const res = await rawRequest(port, { path: '/api/billing/cancel', headers: { authorization: `Bearer ${bearer}`, origin: 'capacitor://localhost' }, body: { cancel: true } });
    expect(res.status).toBe(200);
    expect(await cancelFlag()).toBe(true);
  });

  it('keeps the payment webhooks reachable from their providers', async () => {
    for (const path of ['/api/billing/stripe/webhook', '/api/iap/notifications']) {
      const res = await rawRequest(port, { path, headers: { cookie, origin: 'https://stripe.example' }, body: {} });
      expect(res.status, path).not.toBe(403);
    }
  });
});
