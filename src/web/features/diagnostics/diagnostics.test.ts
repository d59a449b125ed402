import { describe, expect, it } from 'vitest';
import type { MeResponse } from '#shared/contracts/auth.ts';
import type { SubscriptionResponse } from '#shared/contracts/billing.ts';
import { buildReport, formatReport } from '#web/features/diagnostics/debug-log.ts';
import { initialTaps, registerTap, type TapState } from '#web/features/diagnostics/tap-counter.ts';

function tapAt(times: number[]): boolean[] {
  let state: TapState = initialTaps;
  return times.map((t) => {
    const result = registerTap(state, t);
    state = result.state;
    return result.open;
  });
}

describe('diagnostics tap counter', () => {
  it('opens on the fifth rapid tap', () => {
    expect(tapAt([0, 400, 800, 1200, 1600])).toEqual([false, false, false, false, true]);
  });

  it('resets after 3 s without tapping', () => {
    expect(tapAt([0, 500, 1000, 1500, 4500, 5000, 5500, 6000])).toEqual([false, false, false, false, false, false, false, false]);
    expect(tapAt([0, 500, 1000, 1500, 4500, 5000, 5500, 6000, 6500])).toEqual([false, false, false, false, false, false, false, false, true]);
  });

  it('measures the pause between taps, not since the first tap', () => {
    expect(tapAt([0, 2900, 5800, 8700, 11600])).toEqual([false, false, false, false, true]);
  });

  it('starts a new sequence after opening', () => {
    expect(tapAt([0, 1, 2, 3, 4, 5, 6])).toEqual([false, false, false, false, true, false, false]);
  });
});

describe('diagnostics report', () => {
  const me = {
    user: { id: 'u-1', email: 'ivy@example.com', name: 'Ivy', emailVerified: true, createdAt: '2026-01-01T00:00:00.000Z' },
    role: 'user',
    subscribed: true,
    session: { expiresAt: '2026-12-01T00:00:00.000Z' },
    providers: ['credential', 'google'],
    // Anything the server might add later must not reach the report.
    token: 'secret-session-token',
    accessToken: 'ya29.secret',
  } as MeResponse;
  const subscription: SubscriptionResponse = {
    subscribed: true,
    trialEligible: false,
    subscription: { status: 'trialing', plan: 'monthly', provider: 'sandbox', currentPeriodEnd: '2026-12-01T00:00:00.000Z', trialEnd: null, cancelAtPeriodEnd: false, paymentError: null },
    mode: 'sandbox',
    products: 2,
  };
  const base = { lastValidatedAt: Date.parse('2026-11-23T10:00:00Z'), productCount: 2, online: true, serviceWorker: 'active' as const, pendingSessions: 1, offlineCopies: 2, userAgent: 'test', now: new Date('2026-11-23T10:05:00Z') };

  it('fills auth and purchase status from the real state', () => {
    const report = buildReport({ ...base, me, subscription });
    expect(report.auth).toEqual({ authenticated: true, email: 'ivy@example.com', provider: 'email, google', tokenExpiry: '2026-12-01T00:00:00.000Z', userId: 'u-1', role: 'user' });
    expect(report.purchases).toEqual({ activeSubscription: true, platform: 'sandbox', environment: 'sandbox', productCount: 2, lastValidation: '2026-11-23T10:00:00.000Z', status: 'trialing' });
    expect(report.device).toMatchObject({ appVersion: '1.0.0', pendingSessions: 1, offlineCopies: 2 });
  });

  it('never carries a secret into the copied log', () => {
    const text = formatReport(buildReport({ ...base, me, subscription }));
    expect(text).not.toContain('secret');
    expect(text).not.toMatch(/token"\s*:\s*"(?!2026)/i);
  });

  it('describes a signed-out visitor without inventing values', () => {
    const report = buildReport({ ...base, me: { user: null, role: null, subscribed: false }, subscription: undefined, lastValidatedAt: 0 });
    expect(report.auth).toEqual({ authenticated: false, email: null, provider: null, tokenExpiry: null, userId: null, role: null });
    expect(report.purchases).toMatchObject({ activeSubscription: false, platform: null, lastValidation: null });
  });
});
