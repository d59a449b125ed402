/**
 * Issue 33, row 7: RevenueCat events that name two accounts, and events without their time.
 * - app_user_id=<bob>, aliases=[<alice>] gave alice Premium: the app_user_id wins, and when it names
 *   no account, aliases naming more than one account are refused as ambiguous.
 * - An event without event_timestamp_ms skipped the staleness check (an EXPIRATION applied after a
 *   newer purchase): it is refused with 400 and nothing is recorded or changed.
 */
import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { revenueCatEvents, subscribers } from '#server/db/schema/billing.ts';
import { REVENUECAT_NO_TIMESTAMP } from '#server/features/billing/revenuecat-billing.ts';
import { revenueCatEvent } from '#server/features/billing/revenuecat-event.fixture.ts';
import { createSignedInUser } from '#tests/setup/auth-helpers.ts';
import { createTestApp, type TestApp } from '#tests/setup/test-app.ts';

const SECRET = 'Bearer rc-attack-5e1d';
const DAY = 24 * 60 * 60 * 1000;

describe('RevenueCat events that name the wrong account or no time', () => {
  let t: TestApp;
  const people: Record<'alice' | 'bob' | 'carol' | 'dan', { userId: string; token: string }> = {} as never;
  beforeAll(async () => {
    t = await createTestApp({ env: { REVENUECAT_WEBHOOK_AUTH: SECRET } });
    for (const name of ['alice', 'bob', 'carol', 'dan'] as const) {
      const person = await createSignedInUser(t, `rc-${name}@example.com`);
      const token = (await t.app.inject({ method: 'GET', url: '/api/iap/app-account-token', headers: { cookie: person.cookie } })).json().appAccountToken as string;
      people[name] = { userId: person.userId, token };
    }
  });
  afterAll(() => t.close());

  let clock = Date.now();
  const event = (type: string, overrides: Record<string, unknown>) => {
    clock += 1000;
    return { event: revenueCatEvent(type, clock, { id: randomUUID(), original_transaction_id: `GPA.${randomUUID()}`, ...overrides }) };
  };
  const post = (payload: unknown) => t.app.inject({ method: 'POST', url: '/api/revenuecat/webhook', headers: { authorization: SECRET }, payload: payload as object });
  const subscriptionOf = async (userId: string) => (await t.database.db.select().from(subscribers).where(eq(subscribers.userId, userId))).at(0);

  it("gives the purchase to the app_user_id's account, never to an account among its aliases", async () => {
    const { alice, bob } = people;
    const res = await post(event('INITIAL_PURCHASE', { app_user_id: bob.token, original_app_user_id: bob.token, aliases: [alice.token, bob.token] }));
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ handled: true, outcome: 'applied' });
    expect(await subscriptionOf(alice.userId)).toBeUndefined();
    expect(await subscriptionOf(bob.userId)).toMatchObject({ status: 'active', provider: 'play_store' });
  });

  it('refuses an event whose app_user_id names no account and whose aliases name two', async () => {
    const { carol, dan } = people;
    const ambiguous = event('INITIAL_PURCHASE', { app_user_id: '$RCAnonymousID:4c2e', original_app_user_id: '$RCAnonymousID:4c2e', aliases: [carol.token, dan.token] });
    const res = await post(ambiguous);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ handled: false, outcome: 'ambiguous-account' });
    expect(await subscriptionOf(carol.userId)).toBeUndefined();
    expect(await subscriptionOf(dan.userId)).toBeUndefined();
    const [recorded] = await t.database.db.select().from(revenueCatEvents).where(eq(revenueCatEvents.id, ambiguous.event.id));
    expect(recorded).toMatchObject({ outcome: 'ambiguous-account', userId: null });
  });

  it('refuses an event without event_timestamp_ms with 400, records nothing and leaves a newer purchase in place', async () => {
    const { carol } = people;
    expect((await post(event('INITIAL_PURCHASE', { app_user_id: carol.token, aliases: [carol.token] }))).json()).toMatchObject({ outcome: 'applied' });
    const before = await subscriptionOf(carol.userId);
    expect(before).toMatchObject({ status: 'active' });
    for (const missing of [{ event_timestamp_ms: undefined }, { event_timestamp_ms: null }]) {
      const late = event('EXPIRATION', { app_user_id: carol.token, aliases: [carol.token], expiration_at_ms: clock - 60 * DAY, ...missing });
      const res = await post(late);
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toMatchObject({ code: 'validation/invalid-input', message: REVENUECAT_NO_TIMESTAMP });
      expect(await t.database.db.select().from(revenueCatEvents).where(eq(revenueCatEvents.id, late.event.id))).toEqual([]);
    }
    expect(await subscriptionOf(carol.userId)).toEqual(before);
  });
});
