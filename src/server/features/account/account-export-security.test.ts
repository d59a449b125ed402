/**
 * Issue 33, row 14: the App Store and RevenueCat store the account's appAccountToken (the secret that
 * binds store purchases to the account) as the subscription's customer id, and the export handed it out.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { user } from '#server/db/schema/auth.ts';
import { syncSubscription } from '#server/features/billing/subscriptions.service.ts';
import { createSignedInUser } from '#tests/setup/auth-helpers.ts';
import { createTestApp, type TestApp } from '#tests/setup/test-app.ts';

describe('the data export and the store purchase token', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const tokenOf = async (userId: string) => (await t.database.db.select({ token: user.appAccountToken }).from(user).where(eq(user.id, userId)))[0].token;
  const exportOf = (cookie: string) => t.app.inject({ method: 'GET', url: '/api/account/export', headers: { cookie } });

  it.each([
    ['app_store', (token: string) => token],
    ['play_store', (token: string) => token.toUpperCase()],
  ] as const)('leaves the token out of a %s subscription, in any letter case', async (provider, stored) => {
    const person = await createSignedInUser(t, `export-token-${provider}@example.com`);
    const token = await tokenOf(person.userId);
    await syncSubscription({
      db: t.database.db,
      userId: person.userId,
      snapshot: { provider, status: 'active', plan: 'yearly', providerCustomerId: stored(token), providerSubscriptionId: `GPA.${provider}`, currentPeriodEnd: new Date(Date.now() + 864e5), environment: 'production' },
    });
    const res = await exportOf(person.cookie);
    expect(res.statusCode).toBe(200);
    expect(res.json().subscription).toMatchObject({ provider, providerCustomerId: null, providerSubscriptionId: `GPA.${provider}` });
    expect(res.body.toLowerCase()).not.toContain(token.toLowerCase());
  });

  it('keeps a Stripe customer id, which is only a name at Stripe', async () => {
    const person = await createSignedInUser(t, 'export-token-stripe@example.com');
    await syncSubscription({ db: t.database.db, userId: person.userId, snapshot: { provider: 'stripe', status: 'active', plan: 'monthly', providerCustomerId: 'cus_Harbour123', providerSubscriptionId: 'sub_123', currentPeriodEnd: new Date(Date.now() + 864e5) } });
    expect((await exportOf(person.cookie)).json().subscription).toMatchObject({ provider: 'stripe', providerCustomerId: 'cus_Harbour123' });
  });
});
