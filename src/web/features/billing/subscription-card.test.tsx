// @vitest-environment jsdom
/** Account › Settings when a renewal payment failed: the spec's 'payment-failed' words and the way to fix it. */
import { cleanup, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SubscriptionCard } from '#web/features/billing/subscription-card.tsx';
import { answerFetch, json, renderWithQueries } from '#tests/setup/render-web.tsx';

const subscription = (status: string, paymentError: string | null = null) => ({
  subscribed: false,
  trialEligible: false,
  mode: 'stripe',
  products: 2,
  subscription: { status, plan: 'monthly', provider: 'stripe', currentPeriodEnd: '2026-12-01T00:00:00.000Z', trialEnd: null, cancelAtPeriodEnd: false, paymentError },
});

function renderCard(status: string, paymentError: string | null = null) {
  answerFetch(() => json(subscription(status, paymentError)));
  renderWithQueries(<SubscriptionCard />, { router: true });
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('subscription card', () => {
  it('says the payment could not be processed, and offers to update the payment details, when a renewal failed', async () => {
    renderCard('past_due');
    expect((await screen.findByRole('alert')).textContent).toBe('Payment could not be processed. Please check your payment details.');
    expect(screen.getByText('Payment overdue')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Update payment details' })).toBeTruthy();
  });

  it("says the card was declined when Stripe reported a decline (spec: 'subscription/card-declined')", async () => {
    renderCard('past_due', 'card-declined');
    expect((await screen.findByRole('alert')).textContent).toBe('Your card was declined. Please try a different payment method.');
    expect(screen.getByRole('button', { name: 'Update payment details' })).toBeTruthy();
  });

  it('says nothing of payment for a subscription that simply ended', async () => {
    renderCard('canceled');
    await screen.findByText('Ended');
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.getByRole('button', { name: 'Manage' })).toBeTruthy();
  });
});
