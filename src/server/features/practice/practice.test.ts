import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_AUDIO_SECONDS } from '#shared/constants.ts';
import { meditationSessions } from '#server/db/schema/practice.ts';
import { buildMeditation } from '#tests/factories.ts';
import { createSignedInUser, origin } from '#tests/setup/auth-helpers.ts';
import { createTestApp, type TestApp } from '#tests/setup/test-app.ts';
import { testDatabaseKinds } from '#tests/setup/test-db.ts';

describe.each(testDatabaseKinds())('practice and favourites on %s', (kind) => {
  let t: TestApp;
  let cookie: string;
  let userId: string;
  let other: { cookie: string; userId: string };
  let meditation: { id: string; durationSeconds: number | null; title: string };
  let second: { id: string; title: string };

  beforeAll(async () => {
    t = await createTestApp({ kind });
    ({ cookie, userId } = await createSignedInUser(t, 'practice@example.com'));
    other = await createSignedInUser(t, 'practice-other@example.com');
    meditation = await buildMeditation(t.database.db, { durationSeconds: 754, duration: '13 min' });
    second = await buildMeditation(t.database.db);
  });
  afterAll(() => t.close());

  const post = (payload: object, headers: Record<string, string> = { cookie }) =>
    t.app.inject({ method: 'POST', url: '/api/sessions', headers: { ...origin(t), ...headers }, payload });
  const practice = async (tz = 'Europe/London', headers: Record<string, string> = { cookie }) =>
    t.app.inject({ method: 'GET', url: `/api/practice?tz=${encodeURIComponent(tz)}`, headers });

  describe('played marks (issue 17, item 4)', () => {
    it('lists each meditation this account completed once, never another account’s, and only to its owner', async () => {
      const played = (headers: Record<string, string>) => t.app.inject({ method: 'GET', url: '/api/practice/played', headers });
      const listener = await createSignedInUser(t, 'played@example.com');
      expect((await played({ cookie: listener.cookie })).json()).toEqual({ ids: [] });
      for (const id of [meditation.id, meditation.id, second.id]) {
        expect((await post({ id: randomUUID(), meditationId: id, completedAt: new Date().toISOString() }, { cookie: listener.cookie })).statusCode).toBe(201);
      }
      await post({ id: randomUUID(), meditationId: second.id, completedAt: new Date().toISOString() }, { cookie: other.cookie });
      expect((await played({ cookie: listener.cookie })).json<{ ids: string[] }>().ids.sort()).toEqual([meditation.id, second.id].sort());
      expect((await played({ cookie: other.cookie })).json<{ ids: string[] }>().ids).toContain(second.id);
      expect((await played({ cookie: other.cookie })).json<{ ids: string[] }>().ids).not.toContain(meditation.id);
      expect((await played({})).statusCode).toBe(401);
    });
  });

  describe('sessions', () => {
    it('refuses anonymous visitors', async () => {
      const res = await post({ id: randomUUID(), meditationId: meditation.id, completedAt: new Date().toISOString() }, {});
      expect(res.statusCode).toBe(401);
      expect((await practice('UTC', {})).statusCode).toBe(401);
    });

    it('records one row per play however often the device sends it, with minutes from the catalogue', async () => {
      const body = { id: randomUUID(), meditationId: meditation.id, completedAt: new Date().toISOString() };
      const first = await post(body);
      expect(first.statusCode).toBe(201);
      expect(first.json()).toMatchObject({ created: true, session: { id: body.id, meditationId: meditation.id, durationMinutes: Math.round(meditation.durationSeconds! / 60) } });
      const results = await Promise.all([post(body), post(body), post(body)]);
      expect(results.map((r) => r.statusCode)).toEqual([200, 200, 200]);
      expect(results.every((r) => r.json().created === false)).toBe(true);
      const rows = await t.database.db.select().from(meditationSessions).where(eq(meditationSessions.clientId, body.id));
      expect(rows).toHaveLength(1);
      expect(rows[0].userId).toBe(userId);
    });

    it('ignores a duration sent by the client', async () => {
      const res = await post({ id: randomUUID(), meditationId: meditation.id, completedAt: new Date().toISOString(), durationMinutes: 600 });
      expect(res.json().session.durationMinutes).toBe(Math.round(meditation.durationSeconds! / 60));
    });

    it('credits at most 4 hours for a meditation whose stored length is absurd (1.8 million minutes)', async () => {
      const poisoned = await buildMeditation(t.database.db, { durationSeconds: 112_195_064, duration: '1869918 min' });
      const fresh = await createSignedInUser(t, `poisoned-${kind}@example.com`);
      const res = await post({ id: randomUUID(), meditationId: poisoned.id, completedAt: new Date().toISOString(), durationMinutes: 1_869_918 }, { cookie: fresh.cookie });
      expect(res.statusCode).toBe(201);
      expect(res.json().session.durationMinutes).toBe(MAX_AUDIO_SECONDS / 60);
      expect((await practice('UTC', { cookie: fresh.cookie })).json()).toMatchObject({ totalSessions: 1, totalMinutes: MAX_AUDIO_SECONDS / 60 });
    });

    it('keeps rows recorded before the cap from poisoning the summary', async () => {
      const fresh = await createSignedInUser(t, `old-rows-${kind}@example.com`);
      await t.database.db.insert(meditationSessions).values([
        { userId: fresh.userId, meditationId: meditation.id, clientId: randomUUID(), durationMinutes: 1_869_918, completedAt: new Date() },
        { userId: fresh.userId, meditationId: meditation.id, clientId: randomUUID(), durationMinutes: 13, completedAt: new Date() },
      ]);
      const body = (await practice('UTC', { cookie: fresh.cookie })).json();
      expect(body).toMatchObject({ totalSessions: 2, totalMinutes: MAX_AUDIO_SECONDS / 60 + 13 });
      expect(body.week.find((d: { date: string }) => d.date === body.today)).toMatchObject({ sessions: 2, minutes: MAX_AUDIO_SECONDS / 60 + 13 });
    });

    it('keeps users apart: the same play id from another user is another session', async () => {
      const id = randomUUID();
      expect((await post({ id, meditationId: meditation.id, completedAt: new Date().toISOString() })).statusCode).toBe(201);
      expect((await post({ id, meditationId: meditation.id, completedAt: new Date().toISOString() }, { cookie: other.cookie })).statusCode).toBe(201);
    });

    it.each([
      ['no play id', { meditationId: 'M', completedAt: new Date().toISOString() }, 'A session id is required.'],
      ['a malformed meditation id', { id: randomUUID(), meditationId: 'not-a-uuid', completedAt: new Date().toISOString() }, 'Meditation not found'],
      ['no completion time', { id: randomUUID(), meditationId: 'M' }, 'A completion time is required.'],
      ['a time in the future', { id: randomUUID(), meditationId: 'M', completedAt: new Date(Date.now() + 3_600_000).toISOString() }, 'This session’s completion time is in the future.'],
      ['a time more than 90 days ago', { id: randomUUID(), meditationId: 'M', completedAt: new Date(Date.now() - 91 * 86_400_000).toISOString() }, 'This session is more than 90 days old and can no longer be recorded.'],
    ])('rejects %s and records nothing', async (_label, body, message) => {
      const before = await t.database.db.select().from(meditationSessions);
      const payload = { ...body, meditationId: (body as { meditationId?: string }).meditationId === 'M' ? meditation.id : (body as { meditationId?: string }).meditationId };
      const res = await post(payload);
      expect(res.statusCode).toBe(400);
      expect(res.json().error.message).toBe(message);
      expect(await t.database.db.select().from(meditationSessions)).toHaveLength(before.length);
    });

    it('answers 404 for a meditation that does not exist', async () => {
      const res = await post({ id: randomUUID(), meditationId: randomUUID(), completedAt: new Date().toISOString() });
      expect(res.statusCode).toBe(404);
      expect(res.json().error.message).toBe('Meditation not found');
    });

    it('accepts a session completed offline yesterday', async () => {
      const res = await post({ id: randomUUID(), meditationId: second.id, completedAt: new Date(Date.now() - 86_400_000).toISOString() });
      expect(res.statusCode).toBe(201);
    });
  });

  describe('practice summary', () => {
    it('counts sessions, minutes, streaks and this week in the user’s timezone', async () => {
      const fresh = await createSignedInUser(t, `streaks-${kind}@example.com`);
      const at = (daysAgo: number) => new Date(Date.now() - daysAgo * 86_400_000).toISOString();
      for (const daysAgo of [0, 0, 1, 2, 5, 6, 7, 8]) {
        expect((await post({ id: randomUUID(), meditationId: meditation.id, completedAt: at(daysAgo) }, { cookie: fresh.cookie })).statusCode).toBe(201);
      }
      const res = await practice('UTC', { cookie: fresh.cookie });
      expect(res.statusCode).toBe(200);
      const body = res.json();
      const minutes = Math.round(meditation.durationSeconds! / 60);
      expect(body).toMatchObject({ totalSessions: 8, totalMinutes: 8 * minutes, currentStreak: 3, longestStreak: 4, showStreaks: true, timezone: 'UTC' });
      expect(body.week).toHaveLength(7);
      expect(body.week.find((d: { date: string }) => d.date === body.today)).toMatchObject({ sessions: 2, minutes: 2 * minutes });
    });

    it('rejects an unknown timezone', async () => {
      const res = await practice('Mars/Olympus_Mons');
      expect(res.statusCode).toBe(400);
      expect(res.json().error.message).toBe('Unknown timezone.');
    });

    it('hides streaks when the user asks, and sends no streak numbers at all', async () => {
      const put = (showStreaks: unknown) => t.app.inject({ method: 'PUT', url: '/api/practice/preferences', headers: { ...origin(t), cookie }, payload: { showStreaks } });
      expect((await put('yes')).statusCode).toBe(400);
      expect((await put(false)).statusCode).toBe(200);
      expect((await practice()).json()).toMatchObject({ showStreaks: false, currentStreak: null, longestStreak: null });
      expect((await put(true)).statusCode).toBe(200);
      expect((await practice()).json().currentStreak).toBeGreaterThanOrEqual(1);
    });

    it('keeps the answer to "What brings you here?" beside the streak switch, and refuses anything else (issue 17, item 3)', async () => {
      const person = await createSignedInUser(t, `focus-${kind}@example.com`);
      const put = (payload: unknown, headers: Record<string, string> = { cookie: person.cookie }) =>
        t.app.inject({ method: 'PUT', url: '/api/practice/preferences', headers: { ...origin(t), ...headers }, payload: payload as object });
      expect((await practice('UTC', { cookie: person.cookie })).json()).toMatchObject({ focus: null, showStreaks: true, lastMeditationId: null });

      for (const bad of [{ focus: 'constructor' }, { focus: 'sleep\u0000' }, { focus: 3 }, {}, { showStreaks: 'no' }]) {
        const res = await put(bad);
        expect(res.statusCode, JSON.stringify(bad)).toBe(400);
        expect(res.json().error.message).toBeTruthy();
      }
      expect((await put({ focus: 'bogus' })).json().error.message).toContain('Choose one of the listed answers.');
      expect((await put({ focus: 'sleep' }, {})).statusCode).toBe(401);
      expect((await practice('UTC', { cookie: person.cookie })).json().focus).toBeNull();

      expect((await put({ focus: 'sleep' })).json()).toEqual({ showStreaks: true, focus: 'sleep' });
      // Changing one preference keeps the other.
      expect((await put({ showStreaks: false })).json()).toEqual({ showStreaks: false, focus: 'sleep' });
      expect((await put({ focus: 'condition' })).json()).toEqual({ showStreaks: false, focus: 'condition' });
      expect((await practice('UTC', { cookie: person.cookie })).json()).toMatchObject({ focus: 'condition', showStreaks: false });
      expect((await put({ focus: null })).json()).toEqual({ showStreaks: false, focus: null });
      // Another account's answer is its own.
      expect((await practice('UTC', { cookie: other.cookie })).json().focus).toBeNull();
    });

    it('names the meditation of the latest completed session for "Continue" on home', async () => {
      const person = await createSignedInUser(t, `last-${kind}@example.com`);
      const at = (minutesAgo: number) => new Date(Date.now() - minutesAgo * 60_000).toISOString();
      await post({ id: randomUUID(), meditationId: second.id, completedAt: at(5) }, { cookie: person.cookie });
      // Sent later (an offline queue), but completed earlier: the latest completion wins, not the latest upload.
      await post({ id: randomUUID(), meditationId: meditation.id, completedAt: at(60) }, { cookie: person.cookie });
      expect((await practice('UTC', { cookie: person.cookie })).json().lastMeditationId).toBe(second.id);
      expect((await practice('UTC', { cookie: other.cookie })).json().lastMeditationId).not.toBe(second.id);
    });
  });

  describe('favourites', () => {
    const put = (id: string, headers: Record<string, string> = { cookie }) => t.app.inject({ method: 'PUT', url: `/api/favourites/${id}`, headers: { ...origin(t), ...headers } });
    const del = (id: string, headers: Record<string, string> = { cookie }) => t.app.inject({ method: 'DELETE', url: `/api/favourites/${id}`, headers: { ...origin(t), ...headers } });
    const list = async (headers: Record<string, string> = { cookie }) => (await t.app.inject({ method: 'GET', url: '/api/favourites', headers })).json();

    it('refuses anonymous visitors', async () => {
      expect((await put(meditation.id, {})).statusCode).toBe(401);
      expect((await t.app.inject({ method: 'GET', url: '/api/favourites' })).statusCode).toBe(401);
    });

    it('saves once, lists newest first with the card, removes, per user', async () => {
      expect((await put(meditation.id)).statusCode).toBe(201);
      expect((await put(meditation.id)).statusCode).toBe(200);
      expect((await put(second.id)).statusCode).toBe(201);
      const { favourites } = await list();
      expect(favourites.map((f: { meditation: { id: string } }) => f.meditation.id)).toEqual([second.id, meditation.id]);
      expect(favourites[1]).toMatchObject({ meditation: { title: meditation.title }, savedAt: expect.any(String) });
      expect(JSON.stringify(favourites)).not.toMatch(/storage|audio_url|\.mp3/);
      expect((await list({ cookie: other.cookie })).favourites).toEqual([]);
      expect((await del(second.id)).statusCode).toBe(204);
      expect((await del(second.id)).statusCode).toBe(204);
      expect((await list()).favourites).toHaveLength(1);
    });

    it('answers 404 for an unknown meditation and 400 for a malformed id', async () => {
      expect((await put(randomUUID())).statusCode).toBe(404);
      expect((await put('x')).statusCode).toBe(400);
    });
  });
});
