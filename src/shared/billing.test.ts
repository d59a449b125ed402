import { describe, expect, it } from 'vitest';
import { isPlan, isSubscriptionActive, planFromProductId } from '#shared/billing.ts';
import { START_TRIAL_LABEL, TRIAL_OFFER_TEXT } from '#shared/trial-offer.ts';

const now = new Date('2026-06-01T12:00:00Z');

describe('isSubscriptionActive', () => {
  it.each([
    [null, false],
    [{ status: 'active', currentPeriodEnd: null }, true],
    [{ status: 'trialing', currentPeriodEnd: '2026-06-02T00:00:00Z' }, true],
    [{ status: 'active', currentPeriodEnd: '2026-06-01T11:59:59Z' }, false],
    [{ status: 'active', currentPeriodEnd: '2026-06-01T12:00:00Z' }, false],
    [{ status: 'past_due', currentPeriodEnd: '2027-01-01T00:00:00Z' }, false],
    [{ status: 'canceled', currentPeriodEnd: '2027-01-01T00:00:00Z' }, false],
    [{ status: 'expired', currentPeriodEnd: null }, false],
  ])('%j → %s', (sub, expected) => {
    expect(isSubscriptionActive(sub, now)).toBe(expected);
  });

  it('maps only the two product ids', () => {
    expect(planFromProductId('hm_plus_monthly')).toBe('monthly');
    expect(planFromProductId('hm_plus_yearly')).toBe('yearly');
    expect(planFromProductId('hm_plus_weekly')).toBeUndefined();
  });
});

describe('the offer where a locked meditation meets a visitor (issue 17)', () => {
  it('states the trial, the yearly price and its monthly share in the issue’s words', () => {
    expect(TRIAL_OFFER_TEXT).toBe('7 days free, then £39.99 a year (£3.33 a month)');
    expect(START_TRIAL_LABEL).toBe('Start 7-day free trial');
  });
});

describe('isPlan: a plan named in an address or a stored row', () => {
  it('accepts the two plans only', () => {
    expect(['monthly', 'yearly'].every(isPlan)).toBe(true);
    for (const value of ['weekly', 'Yearly', '', null, undefined, 'yearly\u0000']) expect(isPlan(value), String(value)).toBe(false);
  });
});
