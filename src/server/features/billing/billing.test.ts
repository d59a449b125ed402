import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { meditationContent, meditationPreviews } from '#server/db/schema/catalogue.ts';
import { seedDemoCatalogue } from '#server/db/seed.ts';
import { grantRoleByEmail } from '#server/features/admin/roles.service.ts';
import { syncSubscription } from '#server/features/billing/subscriptions.service.ts';
import { createMediaSigner } from '#server/features/media/media-signing.ts';
import { loadOrCreateSecret } from '#server/secrets.ts';
import { createSignedInUser, origin, signIn, signUp } from '#tests/setup/auth-helpers.ts';
import { createTestApp, type TestApp } from '#tests/setup/test-app.ts';
import { testDatabaseKinds } from '#tests/setup/test-db.ts';

const DAY = 86_400_000;

describe.each(testDatabaseKinds())('billing and entitlement on %s', (kind) => {
  let t: TestApp;
  let meditationId: string;
  beforeAll(async () => {
    t = await createTestApp({ kind });
    await seedDemoCatalogue({ db: t.database.db, storage: t.storage });
    // A paid meditation (the demo's free samples are played by anyone; they have tests of their own below).
    const [paid] = await t.database.db
      .select({ id: meditationContent.meditationId })
      .from(meditationContent)
      .innerJoin(meditationPreviews, eq(meditationPreviews.id, meditationContent.meditationId))
      .where(eq(meditationPreviews.free, false))
      .limit(1);
    meditationId = paid.id;
  });
  afterAll(() => t.close());

  const get = (url: string, cookie?: string, headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url, headers: { ...(cookie ? { cookie } : {}), ...headers } });
  const post = (url: string, cookie: string, payload: object = {}) => t.app.inject({ method: 'POST', url, headers: { ...origin(t), cookie }, payload });

  it('runs the sandbox journey: checkout → sandbox session → complete → trialing for 7 days', async () => {
    const { cookie, userId } = await createSignedInUser(t, 'trial@example.com');
    const before = (await get('/api/subscription', cookie)).json();
    expect(before).toMatchObject({ subscribed: false, trialEligible: true, subscription: null, mode: 'sandbox' });

    expect((await post('/api/billing/checkout', cookie, { plan: 'weekly' })).statusCode).toBe(400);
    const checkout = await post('/api/billing/checkout', cookie, { plan: 'yearly' });
    expect(checkout.statusCode).toBe(200);
    expect(checkout.json()).toMatchObject({ trial: true });
    const sessionId = new URL(checkout.json().url, t.config.publicUrl).searchParams.get('session_id')!;
    expect(checkout.json().url).toBe(`/subscribe/sandbox-checkout?session_id=${sessionId}`);

    const session = await get(`/api/billing/sandbox/sessions/${sessionId}`, cookie);
    expect(session.json()).toMatchObject({ plan: 'yearly', label: 'Premium Yearly', priceText: '£39.99 / year', withTrial: true });

    // Someone else cannot complete (or even see) this session.
    const other = await createSignedInUser(t, 'other@example.com');
    expect((await post(`/api/billing/sandbox/sessions/${sessionId}/complete`, other.cookie)).statusCode).toBe(404);

    const done = await post(`/api/billing/sandbox/sessions/${sessionId}/complete`, cookie);
    expect(done.json()).toEqual({ redirect: `/account?session_id=${sessionId}` });
    expect((await post(`/api/billing/sandbox/sessions/${sessionId}/complete`, cookie)).statusCode).toBe(404); // one use

    const after = (await get('/api/subscription', cookie)).json();
    expect(after.subscribed).toBe(true);
    expect(after.trialEligible).toBe(false);
    expect(after.subscription).toMatchObject({ status: 'trialing', plan: 'yearly', provider: 'sandbox', cancelAtPeriodEnd: false });
    const trialDays = (Date.parse(after.subscription.trialEnd) - Date.now()) / DAY;
    expect(trialDays).toBeGreaterThan(6.99);
    expect(trialDays).toBeLessThanOrEqual(7);
    expect((await get('/api/me', cookie)).json()).toMatchObject({ subscribed: true });

    expect((await post('/api/billing/checkout', cookie, { plan: 'monthly' })).statusCode).toBe(409);

    const cancelled = await post('/api/billing/cancel', cookie, { cancel: true });
    expect(cancelled.json()).toMatchObject({ subscribed: true, subscription: { cancelAtPeriodEnd: true } });
    const resumed = await post('/api/billing/cancel', cookie, { cancel: false });
    expect(resumed.json().subscription.cancelAtPeriodEnd).toBe(false);
    expect((await post('/api/billing/portal', cookie)).json()).toEqual({ url: '/subscribe/sandbox-portal' });
    expect(userId).toBeTruthy();
  });

  it('gives no second trial: the plain subscription with the spec notice', async () => {
    const { cookie, userId } = await createSignedInUser(t, 'again@example.com');
    await syncSubscription({ db: t.database.db, userId, snapshot: { provider: 'sandbox', status: 'canceled', plan: 'monthly', currentPeriodEnd: new Date(Date.now() - DAY) } });
    const checkout = await post('/api/billing/checkout', cookie, { plan: 'monthly' });
    expect(checkout.json()).toMatchObject({ trial: false, notice: 'You have already used your free trial. Proceeding with regular subscription.' });
    const sessionId = new URL(checkout.json().url, t.config.publicUrl).searchParams.get('session_id')!;
    await post(`/api/billing/sandbox/sessions/${sessionId}/complete`, cookie);
    const sub = (await get('/api/subscription', cookie)).json().subscription;
    expect(sub.status).toBe('active');
    expect(sub.trialEnd).toBeNull();
    const days = (Date.parse(sub.currentPeriodEnd) - Date.now()) / DAY;
    expect(days).toBeGreaterThan(27);
    expect(days).toBeLessThan(32);
  });

  it('refuses billing calls from anonymous visitors', async () => {
    expect((await get('/api/subscription')).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'POST', url: '/api/billing/checkout', headers: origin(t), payload: { plan: 'monthly' } })).statusCode).toBe(401);
  });

  describe('entitlement matrix: catalogue / playback URL / media fetch', () => {
    const cases: Array<{ name: string; status?: string; periodEndDays?: number | null; cancelAtPeriodEnd?: boolean; role?: 'admin' | 'editor'; entitled: boolean }> = [
      { name: 'signed-in, never subscribed', entitled: false },
      { name: 'trialing', status: 'trialing', periodEndDays: 7, entitled: true },
      { name: 'active', status: 'active', periodEndDays: 30, entitled: true },
      { name: 'active without period end (comped)', status: 'active', periodEndDays: null, entitled: true },
      { name: 'cancelled at period end, period still running', status: 'active', periodEndDays: 3, cancelAtPeriodEnd: true, entitled: true },
      { name: 'expired (period over)', status: 'active', periodEndDays: -1, entitled: false },
      { name: 'canceled', status: 'canceled', periodEndDays: 10, entitled: false },
      { name: 'past due', status: 'past_due', periodEndDays: 10, entitled: false },
      { name: 'admin without subscription', role: 'admin', entitled: true },
      // Editors manage the catalogue: they must hear what they upload (issue 16, item 3).
      { name: 'editor without subscription', role: 'editor', entitled: true },
    ];

    it('anonymous: browses, gets no playback URL and no audio byte', async () => {
      expect((await get('/api/meditations')).statusCode).toBe(200);
      expect((await get(`/api/meditations/${meditationId}/playback`)).statusCode).toBe(401);
      const [content] = await t.database.db.select().from(meditationContent).where(eq(meditationContent.meditationId, meditationId));
      const unsigned = await get(`/media/meditations/${content.storageKey}`);
      expect(unsigned.statusCode).toBe(403);
      expect(unsigned.rawPayload.length).toBeLessThan(200);
      expect(unsigned.headers['content-type']).toContain('application/json');
    });

    it('unverified: has no session, so no playback', async () => {
      await signUp(t, { name: 'Una Verified', email: 'unverified@example.com', password: 'harbour-1' });
      const refused = await signIn(t, 'unverified@example.com', 'harbour-1');
      expect(refused.statusCode).toBe(403);
      expect(refused.headers['set-cookie']).toBeUndefined();
    });

    it.each(cases)('$name → entitled: $entitled', async (c) => {
      const email = `${c.name.replace(/[^a-z]+/gi, '-').toLowerCase()}@example.com`;
      const { cookie, userId } = await createSignedInUser(t, email);
      if (c.status) {
        await syncSubscription({
          db: t.database.db,
          userId,
          snapshot: {
            provider: 'sandbox',
            status: c.status,
            plan: 'monthly',
            currentPeriodEnd: c.periodEndDays === null || c.periodEndDays === undefined ? null : new Date(Date.now() + c.periodEndDays * DAY),
            cancelAtPeriodEnd: c.cancelAtPeriodEnd,
          },
        });
      }
      if (c.role) await grantRoleByEmail({ db: t.database.db, email, role: c.role });

      expect((await get('/api/meditations', cookie)).statusCode).toBe(200);
      expect((await get('/api/subscription', cookie)).json().subscribed).toBe(c.entitled);
      const playback = await get(`/api/meditations/${meditationId}/playback`, cookie);
      expect(playback.statusCode).toBe(c.entitled ? 200 : 403);
      if (!c.entitled) {
        expect(playback.json().error.message).toBe('This meditation is part of your subscription. Start your journey by subscribing to listen.');
        return;
      }
      const { url, expiresAt, mimeType, transcript } = playback.json();
      expect(url).toMatch(/^\/media\/meditations\/[0-9a-f-]+\.(mp3|m4a)\?exp=\d+&sig=[\w-]+$/);
      expect(Date.parse(expiresAt) - Date.now()).toBeLessThanOrEqual(15 * 60_000);
      expect(mimeType).toMatch(/^audio\//);
      expect(transcript.length).toBeGreaterThan(20);

      const full = await get(url);
      expect(full.statusCode).toBe(200);
      expect(full.headers['accept-ranges']).toBe('bytes');
      expect(full.rawPayload.length).toBe(Number(full.headers['content-length']));
      const partial = await get(url, undefined, { range: 'bytes=100-1123' });
      expect(partial.statusCode).toBe(206);
      expect(partial.headers['content-range']).toBe(`bytes 100-1123/${full.rawPayload.length}`);
      expect(partial.rawPayload.equals(full.rawPayload.subarray(100, 1124))).toBe(true);
      const tail = await get(url, undefined, { range: 'bytes=-10' });
      expect(tail.rawPayload.equals(full.rawPayload.subarray(full.rawPayload.length - 10))).toBe(true);
      expect((await get(url, undefined, { range: `bytes=${full.rawPayload.length + 5}-` })).statusCode).toBe(416);
    });
  });

  describe('free samples (decision 0025)', () => {
    const freeIds = async () =>
      (await t.database.db.select({ id: meditationPreviews.id }).from(meditationPreviews).where(eq(meditationPreviews.free, true))).map((r) => r.id);

    it('are three short demo meditations, marked free in the public catalogue', async () => {
      const ids = await freeIds();
      expect(ids).toHaveLength(3);
      const cards = (await get('/api/meditations?category=all')).json<{ meditations: { id: string; free: boolean }[] }>().meditations;
      expect(cards.filter((c) => c.free).map((c) => c.id).sort()).toEqual([...ids].sort());
    });

    it('play for a visitor and for a signed-in member without a subscription; paid ones and unknown ids stay closed', async () => {
      const [freeId] = await freeIds();
      const visitor = await get(`/api/meditations/${freeId}/playback`);
      expect(visitor.statusCode).toBe(200);
      const audio = await get(visitor.json<{ url: string }>().url, undefined, { range: 'bytes=0-99' });
      expect(audio.statusCode).toBe(206);
      expect(audio.rawPayload.length).toBe(100);

      const { cookie } = await createSignedInUser(t, 'sampler@example.com');
      expect((await get(`/api/meditations/${freeId}/playback`, cookie)).statusCode).toBe(200);
      expect((await get(`/api/meditations/${meditationId}/playback`, cookie)).statusCode).toBe(403);
      expect((await get(`/api/meditations/${meditationId}/playback`)).statusCode).toBe(401);
      // An id that names nothing tells a visitor nothing more than a paid one does.
      expect((await get('/api/meditations/00000000-0000-4000-8000-000000000000/playback')).statusCode).toBe(401);
      expect((await get('/api/meditations/00000000-0000-4000-8000-000000000000/playback', cookie)).statusCode).toBe(403);
    });

    it('close again for visitors as soon as an editor takes the flag off', async () => {
      const [freeId] = await freeIds();
      await t.database.db.update(meditationPreviews).set({ free: false }).where(eq(meditationPreviews.id, freeId));
      try {
        expect((await get(`/api/meditations/${freeId}/playback`)).statusCode).toBe(401);
      } finally {
        await t.database.db.update(meditationPreviews).set({ free: true }).where(eq(meditationPreviews.id, freeId));
      }
    });
  });

  it('refuses tampered and expired media signatures', async () => {
    const [content] = await t.database.db.select().from(meditationContent).where(eq(meditationContent.meditationId, meditationId));
    const secret = `media:${loadOrCreateSecret(t.dataDir, 'auth-secret')}`;
    const valid = createMediaSigner(secret).sign(content.storageKey).url;
    expect((await get(valid)).statusCode).toBe(200);
    // Change the first signature character to a different one (a fixed 'A' would be a no-op 1 time in 64).
    const tampered = valid.replace(/sig=(.)/, (_m, c: string) => `sig=${c === 'A' ? 'B' : 'A'}`);
    expect(tampered).not.toBe(valid);
    expect((await get(tampered)).statusCode).toBe(403);
    expect((await get(valid.replace(/exp=\d+/, 'exp=99999999999'))).statusCode).toBe(403);
    const expired = createMediaSigner(secret, () => Date.now() - 3_600_000).sign(content.storageKey).url;
    const res = await get(expired);
    expect(res.statusCode).toBe(403);
    expect(res.json().error.code).toBe('media/expired');
    const otherKey = createMediaSigner('some-other-secret').sign(content.storageKey).url;
    expect((await get(otherKey)).statusCode).toBe(403);
  });
});
