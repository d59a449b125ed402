/**
 * BILLING_MODE through the HTTP API: only `sandbox` serves the in-app checkout and the admin test
 * tools; `stripe` and `none` (App Store only) give neither away, and `none` answers web billing
 * calls with a clear refusal instead of a sandbox page.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_MESSAGES } from '#shared/admin.ts';
import { syncSubscription } from '#server/features/billing/subscriptions.service.ts';
import { assignRole } from '#server/features/admin/roles.service.ts';
import { startFakeStripe, type FakeStripe } from '#tests/fakes/fake-stripe.ts';
import { createSignedInUser, origin } from '#tests/setup/auth-helpers.ts';
import { createTestApp, type TestApp } from '#tests/setup/test-app.ts';
import { PGLITE_ONLY } from '#tests/setup/test-db.ts';

const DAY = 86_400_000;
const UNAVAILABLE = 'Subscriptions are not available right now. Please try again later.';
const TEST_TOOLS = ['/api/admin/test-accounts', '/api/admin/test-accounts/reset-passwords', '/api/admin/waitlist/test-data'];
const SANDBOX_SESSION = '/api/billing/sandbox/sessions/cs_sandbox_000000000000000000000000';

type Mode = 'sandbox' | 'stripe' | 'none';

describe.each(PGLITE_ONLY)('billing mode on %s', (kind) => {
  let fake: FakeStripe;
  const apps = {} as Record<Mode, TestApp>;
  const admins = {} as Record<Mode, { cookie: string; userId: string }>;

  beforeAll(async () => {
    fake = await startFakeStripe();
    const env: Record<Mode, Record<string, string>> = {
      sandbox: { BILLING_MODE: 'sandbox' },
      stripe: { BILLING_MODE: 'stripe', STRIPE_SECRET_KEY: 'sk_test_mode', STRIPE_WEBHOOK_SECRET: 'whsec_mode', STRIPE_PRICE_MONTHLY: 'price_m', STRIPE_PRICE_YEARLY: 'price_y', STRIPE_API_BASE: fake.url },
      none: { BILLING_MODE: 'none' },
    };
    for (const mode of ['sandbox', 'stripe', 'none'] as const) {
      apps[mode] = await createTestApp({ kind, env: env[mode] });
      admins[mode] = await createSignedInUser(apps[mode], `admin-${mode}@example.com`);
      await assignRole({ db: apps[mode].database.db, userId: admins[mode].userId, role: 'admin', assignedBy: null });
    }
  });
  afterAll(async () => {
    for (const t of Object.values(apps)) await t.close();
    await fake.close();
  });

  const call = (mode: Mode, method: 'GET' | 'POST', url: string, cookie: string, payload?: object) =>
    apps[mode].app.inject({ method, url, headers: { ...origin(apps[mode]), cookie }, payload });

  it.each(['sandbox', 'stripe', 'none'] as const)('%s: /api/subscription and /api/admin/status say which mode is on', async (mode) => {
    const { cookie } = admins[mode];
    expect((await call(mode, 'GET', '/api/subscription', cookie)).json().mode).toBe(mode);
    expect((await call(mode, 'GET', '/api/admin/status', cookie)).json().sandbox).toBe(mode === 'sandbox');
  });

  it('sandbox: the in-app checkout and the admin test tools work', async () => {
    const { cookie } = await createSignedInUser(apps.sandbox, 'sandbox-buyer@example.com');
    const checkout = await call('sandbox', 'POST', '/api/billing/checkout', cookie, { plan: 'monthly' });
    expect(checkout.statusCode).toBe(200);
    const sessionId = new URL(checkout.json().url, 'http://x').searchParams.get('session_id')!;
    expect((await call('sandbox', 'GET', `/api/billing/sandbox/sessions/${sessionId}`, cookie)).statusCode).toBe(200);
    expect((await call('sandbox', 'POST', `/api/billing/sandbox/sessions/${sessionId}/complete`, cookie)).statusCode).toBe(200);
    expect((await call('sandbox', 'GET', '/api/subscription', cookie)).json().subscribed).toBe(true);
    for (const url of TEST_TOOLS) expect((await call('sandbox', 'POST', url, admins.sandbox.cookie)).statusCode, url).toBe(200);
  });

  it.each(['stripe', 'none'] as const)('%s: no sandbox endpoint exists and the test tools are refused, even to an admin', async (mode) => {
    const { cookie } = admins[mode];
    expect((await call(mode, 'GET', SANDBOX_SESSION, cookie)).statusCode).toBe(404);
    expect((await call(mode, 'POST', `${SANDBOX_SESSION}/complete`, cookie)).statusCode).toBe(404);
    for (const url of TEST_TOOLS) {
      const res = await call(mode, 'POST', url, cookie);
      expect(res.statusCode, url).toBe(403);
      expect(res.json().error.message).toBe(ADMIN_MESSAGES.sandboxOnly);
    }
    expect((await call(mode, 'POST', '/api/auth/sign-in/email', '', { email: 'sandbox-user@harbourmind.test', password: 'harbour-sandbox-1' })).statusCode).not.toBe(200);
  });

  it('none: checkout, cancel and portal refuse clearly; no sandbox checkout or portal is handed out', async () => {
    const { cookie, userId } = await createSignedInUser(apps.none, 'none-buyer@example.com');
    const checkout = await call('none', 'POST', '/api/billing/checkout', cookie, { plan: 'monthly' });
    expect(checkout.statusCode).toBe(503);
    expect(checkout.json().error.message).toBe(UNAVAILABLE);

    // A comped (or leftover sandbox) row: nothing on the web can change or "manage" it.
    await syncSubscription({ db: apps.none.database.db, userId, snapshot: { provider: 'sandbox', status: 'active', plan: 'monthly', currentPeriodEnd: new Date(Date.now() + 10 * DAY) } });
    for (const url of ['/api/billing/cancel', '/api/billing/portal']) {
      const res = await call('none', 'POST', url, cookie, url.endsWith('cancel') ? { cancel: true } : undefined);
      expect(res.statusCode, url).toBe(503);
      expect(res.json().error.message).toBe(UNAVAILABLE);
    }
    expect((await call('none', 'GET', '/api/subscription', cookie)).json().subscription.cancelAtPeriodEnd).toBe(false);

    // An App Store subscription is managed by Apple.
    await syncSubscription({ db: apps.none.database.db, userId, snapshot: { provider: 'app_store', status: 'active', plan: 'monthly', currentPeriodEnd: new Date(Date.now() + 10 * DAY) } });
    for (const url of ['/api/billing/cancel', '/api/billing/portal']) {
      const res = await call('none', 'POST', url, cookie, url.endsWith('cancel') ? { cancel: true } : undefined);
      expect(res.statusCode, url).toBe(409);
      expect(res.json().error.message).toBe('This subscription is managed by Apple: cancel it in Settings › Apple ID › Subscriptions.');
    }
    expect((await call('none', 'POST', '/api/billing/stripe/webhook', '', {})).statusCode).toBe(404);
  });
});
