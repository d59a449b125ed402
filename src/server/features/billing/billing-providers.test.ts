/** The billing port (issue 34, item 3): who sells on the web in each mode, and who keeps each kind of subscription. */
import { describe, expect, it, vi } from 'vitest';
import type { Database } from '#server/db/client.ts';
import { billingProviders } from '#server/features/billing/billing-providers.ts';
import type { StripeBilling } from '#server/features/billing/stripe-billing.ts';
import type { SubscriptionRow } from '#server/features/billing/subscriptions.service.ts';

// Nothing here reaches the database: the sandbox's checkout and sync have their own tests (billing.test.ts).
const db = null as unknown as Database;
const row = (provider: string, ids: Partial<SubscriptionRow> = {}) => ({ provider, userId: 'u1', providerCustomerId: null, providerSubscriptionId: null, ...ids }) as SubscriptionRow;
const fakeStripe = () => {
  const calls = {
    createCheckout: vi.fn(() => Promise.resolve({ id: 'cs_1', url: 'https://checkout.stripe.test/cs_1' })),
    setCancelAtPeriodEnd: vi.fn(() => Promise.resolve()),
    portal: vi.fn(() => Promise.resolve({ url: 'https://billing.stripe.test/p_1' })),
    restore: vi.fn(() => Promise.resolve()),
  };
  return Object.assign(calls as unknown as StripeBilling, { calls });
};

describe('billing providers', () => {
  it('sells through Stripe, the sandbox, or nothing, as BILLING_MODE says, and refuses a mode without its keys', async () => {
    const stripe = fakeStripe();
    const withStripe = billingProviders({ db, mode: 'stripe', stripe });
    expect(await withStripe.seller?.checkout({ userId: 'u1', email: 'a@example.com', plan: 'monthly', withTrial: true })).toMatchObject({ url: 'https://checkout.stripe.test/cs_1' });
    expect(stripe.calls.createCheckout).toHaveBeenCalledWith({ userId: 'u1', email: 'a@example.com', plan: 'monthly', withTrial: true });
    const sandbox = billingProviders({ db, mode: 'sandbox', stripe: undefined });
    expect(sandbox.seller).toBe(sandbox.keeperOf(row('sandbox')));
    expect(billingProviders({ db, mode: 'none', stripe: undefined }).seller).toBeUndefined();
    expect(() => billingProviders({ db, mode: 'stripe', stripe: undefined })).toThrow(/mode stripe without Stripe/);
    expect(() => billingProviders({ db, mode: 'sandbox', stripe })).toThrow(/mode sandbox with Stripe/);
  });

  it('leaves Apple and Google subscriptions to their apps, in their words, and restores nothing for them', async () => {
    const { keeperOf } = billingProviders({ db, mode: 'stripe', stripe: fakeStripe() });
    expect(keeperOf(row('app_store')).changedElsewhere?.()).toMatchObject({ code: 'billing/managed-elsewhere', status: 409, message: expect.stringContaining('Settings › Apple ID › Subscriptions') });
    expect(keeperOf(row('play_store')).changedElsewhere?.()).toMatchObject({ code: 'billing/managed-elsewhere', message: expect.stringContaining('Play Store app') });
    await expect(keeperOf(row('play_store')).setCancelAtPeriodEnd(row('play_store'), true)).rejects.toMatchObject({ code: 'billing/managed-elsewhere' });
    await expect(keeperOf(row('app_store')).restore('u1', row('app_store'))).resolves.toBeUndefined();
    for (const provider of ['stripe', 'sandbox', 'comped']) expect(keeperOf(row(provider)).changedElsewhere).toBeUndefined();
  });

  it('changes a Stripe subscription at Stripe, and says billing is unavailable where this deployment has no Stripe keys', async () => {
    const stripe = fakeStripe();
    const stripeRow = row('stripe', { providerSubscriptionId: 'sub_1', providerCustomerId: 'cus_1' });
    const { keeperOf } = billingProviders({ db, mode: 'stripe', stripe });
    await keeperOf(stripeRow).setCancelAtPeriodEnd(stripeRow, true);
    expect(stripe.calls.setCancelAtPeriodEnd).toHaveBeenCalledWith('sub_1', true);
    expect(await keeperOf(stripeRow).portal(stripeRow)).toEqual({ url: 'https://billing.stripe.test/p_1' });
    await keeperOf(stripeRow).restore('u1', stripeRow);
    expect(stripe.calls.restore).toHaveBeenCalledWith({ userId: 'u1', subscriptionId: 'sub_1' });

    const sandbox = billingProviders({ db, mode: 'sandbox', stripe: undefined });
    await expect(sandbox.keeperOf(stripeRow).setCancelAtPeriodEnd(stripeRow, true)).rejects.toMatchObject({ code: 'billing/unavailable', status: 503 });
    expect(await sandbox.keeperOf(row('comped')).portal(row('comped'))).toEqual({ url: '/subscribe/sandbox-portal' });
  });

  it('refuses a subscription kept by a provider it does not know, instead of treating it as local', () => {
    const { keeperOf } = billingProviders({ db, mode: 'sandbox', stripe: undefined });
    expect(() => keeperOf(row('paypal'))).toThrow("no billing provider for a subscription kept by 'paypal'");
  });
});
