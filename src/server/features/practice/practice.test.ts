import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { MAX_AUDIO_SECONDS } from '#shared/constants.ts';
import { meditationSessions } from '#server/db/schema/practice.ts';
import { buildMeditation } from '#tests/factories.ts';
import { createSignedInUser, origin } from '#tests/setup/auth-helpers.ts';
import { createTestApp, type TestApp } from '#tests/setup/test-app.ts';
import { testDatabaseKinds } from '#tests/setup/test-db.ts';

/**
 * A time zone whose clock now reads between 04:00 and 20:00, where the summaries that count "today" are
 * read: the plays of a test reach back up to an hour or two, and near midnight UTC they fell on two days
 * (a run at 00:40 UTC found today's 2 sessions on yesterday). UTC, or Tokyo (UTC+9) when UTC is near midnight.
 */
const DAYTIME_ZONE = ['UTC', 'Asia/Tokyo'].find((zone) => {
  const hour = Number(new Intl.DateTimeFormat('en-GB', { timeZone: zone, hour: '2-digit', hourCycle: 'h23' }).format(new Date()));
  return hour >= 4 && hour < 20;
})!;

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
    meditation = await buildMeditation(t.database.db, { free: true, durationSeconds: 754, duration: '13 min' });
    second = await buildMeditation(t.database.db, { free: true });
  });
  afterAll(() => t.close());

  /** What a device measured of a play heard from start to end (cut to the track's length by the server). */
  const heard = (seconds: number) => ({ listened: { ranges: [{ start: 0, end: seconds }], seconds } });
  const whole = heard(MAX_AUDIO_SECONDS);
  const post = (payload: object, headers: Record<string, string> = { cookie }) =>
    t.app.inject({ method: 'POST', url: '/api/sessions', headers: { ...origin(t), ...headers }, payload });
  const practice = async (tz = 'Europe/London', headers: Record<string, string> = { cookie }) =>
    t.app.inject({ method: 'GET', url: `/api/practice?tz=${encodeURIComponent(tz)}`, headers });

  describe('played marks (issue 17, item 4)', () => {
    it('lists each meditation this account completed once, never another account’s, and only to its owner', async () => {
      const played = (headers: Record<string, string>) => t.app.inject({ method: 'GET', url: '/api/practice/played', headers });
      const listener = await createSignedInUser(t, 'played@example.com');
      expect((await played({ cookie: listener.cookie })).json()).toEqual({ ids: [] });
      for (const [i, id] of [meditation.id, meditation.id, second.id].entries()) {
        // One play after another: a person's sessions may not overlap (issue 33, row 10).
        expect((await post({ id: randomUUID(), meditationId: id, completedAt: new Date(Date.now() - i * 20 * 60_000).toISOString(), ...whole }, { cookie: listener.cookie })).statusCode).toBe(201);
      }
      await post({ id: randomUUID(), meditationId: second.id, completedAt: new Date(Date.now() - 86_400_000).toISOString(), ...whole }, { cookie: other.cookie });
      expect((await played({ cookie: listener.cookie })).json<{ ids: string[] }>().ids.sort()).toEqual([meditation.id, second.id].sort());
      expect((await played({ cookie: other.cookie })).json<{ ids: string[] }>().ids).toContain(second.id);
      expect((await played({ cookie: other.cookie })).json<{ ids: string[] }>().ids).not.toContain(meditation.id);
      expect((await played({})).statusCode).toBe(401);
    });
  });

  describe('sessions', () => {
    it('refuses anonymous visitors', async () => {
      const res = await post({ id: randomUUID(), meditationId: meditation.id, completedAt: new Date().toISOString(), ...whole }, {});
      expect(res.statusCode).toBe(401);
      expect((await practice('UTC', {})).statusCode).toBe(401);
    });

    it('records one row per play however often the device sends it, with minutes from the catalogue', async () => {
      const body = { id: randomUUID(), meditationId: meditation.id, completedAt: new Date().toISOString(), ...whole };
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

    it('refuses a duration sent by the client, and records nothing', async () => {
      const id = randomUUID();
      const res = await post({ id, meditationId: meditation.id, completedAt: new Date().toISOString(), durationMinutes: 600, ...whole });
      expect(res.statusCode).toBe(400);
      expect(res.json().error.message).toContain('durationMinutes');
      expect(await t.database.db.select().from(meditationSessions).where(eq(meditationSessions.clientId, id))).toHaveLength(0);
    });

    it('credits at most 4 hours for a meditation whose stored length is absurd (1.8 million minutes)', async () => {
      const poisoned = await buildMeditation(t.database.db, { free: true, durationSeconds: 112_195_064, duration: '1869918 min' });
      const fresh = await createSignedInUser(t, `poisoned-${kind}@example.com`);
      const res = await post({ id: randomUUID(), meditationId: poisoned.id, completedAt: new Date().toISOString(), ...whole }, { cookie: fresh.cookie });
      expect(res.statusCode).toBe(201);
      expect(res.json().session.durationMinutes).toBe(MAX_AUDIO_SECONDS / 60);
      expect((await practice(DAYTIME_ZONE, { cookie: fresh.cookie })).json()).toMatchObject({ totalSessions: 1, totalMinutes: MAX_AUDIO_SECONDS / 60 });
    });

    it('keeps rows recorded before the cap from poisoning the summary', async () => {
      const fresh = await createSignedInUser(t, `old-rows-${kind}@example.com`);
      await t.database.db.insert(meditationSessions).values([
        { userId: fresh.userId, meditationId: meditation.id, clientId: randomUUID(), durationMinutes: 1_869_918, completedAt: new Date() },
        { userId: fresh.userId, meditationId: meditation.id, clientId: randomUUID(), durationMinutes: 13, completedAt: new Date() },
      ]);
      const body = (await practice(DAYTIME_ZONE, { cookie: fresh.cookie })).json();
      expect(body).toMatchObject({ totalSessions: 2, totalMinutes: MAX_AUDIO_SECONDS / 60 + 13 });
      expect(body.week.find((d: { date: string }) => d.date === body.today)).toMatchObject({ sessions: 2, minutes: MAX_AUDIO_SECONDS / 60 + 13 });
      // Rows from before honest sessions (no 'complete', no listened seconds) read as the complete sessions they were recorded as.
      expect(body.recent).toHaveLength(2);
      expect(body.recent.every((r: { complete: boolean; title: string }) => r.complete && r.title === meditation.title)).toBe(true);
      expect(body.currentStreak).toBe(1);
    });

    it('keeps users apart: the same play id from another user is another session', async () => {
      const id = randomUUID();
      // Earlier than this user's session of the test above, which it would overlap.
      const completedAt = new Date(Date.now() - 3 * 3_600_000).toISOString();
      expect((await post({ id, meditationId: meditation.id, completedAt, ...whole })).statusCode).toBe(201);
      expect((await post({ id, meditationId: meditation.id, completedAt, ...whole }, { cookie: other.cookie })).statusCode).toBe(201);
    });

    it.each([
      ['no play id', { meditationId: 'M', completedAt: new Date().toISOString(), ...whole }, 'A session id is required.'],
      ['a malformed meditation id', { id: randomUUID(), meditationId: 'not-a-uuid', completedAt: new Date().toISOString(), ...whole }, 'Meditation not found'],
      ['no completion time', { id: randomUUID(), meditationId: 'M', ...whole }, 'A completion time is required.'],
      ['a time in the future', { id: randomUUID(), meditationId: 'M', completedAt: new Date(Date.now() + 3_600_000).toISOString(), ...whole }, 'This session’s completion time is in the future.'],
      ['a time more than 90 days ago', { id: randomUUID(), meditationId: 'M', completedAt: new Date(Date.now() - 91 * 86_400_000).toISOString(), ...whole }, 'This session is more than 90 days old and can no longer be recorded.'],
    ])('rejects %s and records nothing', async (_label, body, message) => {
      const before = await t.database.db.select().from(meditationSessions);
      const payload = { ...body, meditationId: (body as { meditationId?: string }).meditationId === 'M' ? meditation.id : (body as { meditationId?: string }).meditationId };
      const res = await post(payload);
      expect(res.statusCode).toBe(400);
      expect(res.json().error.message).toBe(message);
      expect(await t.database.db.select().from(meditationSessions)).toHaveLength(before.length);
    });

    it('answers 404 for a meditation that does not exist', async () => {
      const res = await post({ id: randomUUID(), meditationId: randomUUID(), completedAt: new Date().toISOString(), ...whole });
      expect(res.statusCode).toBe(404);
      expect(res.json().error.message).toBe('Meditation not found');
    });

    it('accepts a session completed offline yesterday', async () => {
      const res = await post({ id: randomUUID(), meditationId: second.id, completedAt: new Date(Date.now() - 86_400_000).toISOString(), ...whole });
      expect(res.statusCode).toBe(201);
    });
  });

  describe('honest sessions (issue 20, item 3)', () => {
    type Summary = { totalSessions: number; totalMinutes: number; totalSeconds: number; currentStreak: number; week: { date: string; sessions: number; minutes: number }[]; today: string; recent: { meditationId: string; complete: boolean; minutes: number; trackMinutes: number }[] };
    /** Each play ends where the one before it (sent just before) began: a person's sessions may not overlap (issue 33, row 10). */
    let cursor = Date.now();
    // Each test's person starts from now: a shared cursor carried later tests' plays back past midnight
    // (the 19 000 s cap test alone is five hours), and 'today' then had none of them between 00:00 and 05:30 UTC.
    beforeEach(() => {
      cursor = Date.now();
    });
    const listen = (person: { cookie: string }, meditationId: string, ranges: { start: number; end: number }[], seconds: number) => {
      const completedAt = new Date(cursor).toISOString();
      cursor -= seconds * 1000;
      return post({ id: randomUUID(), meditationId, completedAt, listened: { ranges, seconds } }, { cookie: person.cookie });
    };
    const summary = async (person: { cookie: string }) => (await practice(DAYTIME_ZONE, { cookie: person.cookie })).json<Summary>();

    it('credits no session and no minute for seeking to the end of three tracks (the reported defect: 3 sessions, 3 minutes for 15 s)', async () => {
      const person = await createSignedInUser(t, `seeker-${kind}@example.com`);
      const tracks = await Promise.all([1, 2, 3].map(() => buildMeditation(t.database.db, { free: true, durationSeconds: 30, duration: '1 min' })));
      for (const track of tracks) {
        // About 5 s heard of each: the first 2 s, then the slider to 90% and the last 3 s.
        const res = await listen(person, track.id, [{ start: 0, end: 2 }, { start: 27, end: 30 }], 5);
        expect(res.statusCode).toBe(201);
        expect(res.json().session).toMatchObject({ complete: false, durationMinutes: 0 });
      }
      const body = await summary(person);
      expect(body).toMatchObject({ totalSessions: 0, totalMinutes: 0, currentStreak: 0 });
      expect(body.recent.map((r) => [r.complete, r.minutes, r.trackMinutes])).toEqual([[false, 0, 1], [false, 0, 1], [false, 0, 1]]);
      // Not 'Played' either: a partial listen is not a completed meditation.
      expect((await t.app.inject({ method: 'GET', url: '/api/practice/played', headers: { cookie: person.cookie } })).json()).toEqual({ ids: [] });
    });

    it('does not count a replayed part twice, for completeness or minutes', async () => {
      const person = await createSignedInUser(t, `replayer-${kind}@example.com`);
      const track = await buildMeditation(t.database.db, { free: true, durationSeconds: 600, duration: '10 min' });
      // The first 200 s three times over (600 s of ranges, listened honestly: 250 s new) is 250 s of the track: partial.
      const honest = await listen(person, track.id, [{ start: 0, end: 200 }, { start: 0, end: 200 }, { start: 50, end: 250 }], 250);
      expect(honest.json().session).toMatchObject({ complete: false, durationMinutes: 4 });
      // A device claiming the replays as listening time gets no more than those 250 s at the slowest speed (0.75×): 333 s.
      const claimed = await listen(person, track.id, [{ start: 0, end: 250 }], 750);
      expect(claimed.json().session).toMatchObject({ complete: false, durationMinutes: 6 });
      expect(await summary(person)).toMatchObject({ totalSessions: 0, totalMinutes: 10 });
    });

    it('caps the credit by the track’s real length, whatever the device claims', async () => {
      const person = await createSignedInUser(t, `capped-${kind}@example.com`);
      const res = await listen(person, meditation.id, [{ start: 0, end: 19_000 }], 19_000);
      expect(res.json().session).toMatchObject({ complete: true, durationMinutes: 13 });
      const row = (await t.database.db.select().from(meditationSessions).where(eq(meditationSessions.userId, person.userId)))[0];
      expect(row).toMatchObject({ complete: true, listenedSeconds: 754, durationMinutes: 13 });
    });

    it('counts a session complete at 80% of the track, or at 5 minutes of a longer one; partial ones add minutes but no session or streak day', async () => {
      const person = await createSignedInUser(t, `eighty-${kind}@example.com`);
      const short = await buildMeditation(t.database.db, { free: true, durationSeconds: 300, duration: '5 min' });
      const long = await buildMeditation(t.database.db, { free: true, durationSeconds: 2400, duration: '40 min' });
      const cases: [string, number, boolean][] = [
        [short.id, 240, true],
        [short.id, 239, false],
        [long.id, 300, true],
        [long.id, 299, false],
      ];
      for (const [id, heardSeconds, complete] of cases) {
        const res = await listen(person, id, [{ start: 0, end: heardSeconds }], heardSeconds);
        expect(res.json().session.complete, `${heardSeconds} s`).toBe(complete);
      }
      const body = await summary(person);
      expect(body).toMatchObject({ totalSessions: 2, totalMinutes: 4 + 4 + 5 + 5, currentStreak: 1 });
      expect(body.week.find((d) => d.date === body.today)).toMatchObject({ sessions: 2, minutes: 18 });
      expect(body.recent.filter((r) => !r.complete).map((r) => [r.minutes, r.trackMinutes]).sort()).toEqual([[4, 5], [5, 40]].sort());
    });

    it('keeps a day with only partial sessions out of the streak', async () => {
      const person = await createSignedInUser(t, `gentle-${kind}@example.com`);
      const yesterday = new Date(Date.now() - 86_400_000).toISOString();
      await post({ id: randomUUID(), meditationId: meditation.id, completedAt: yesterday, ...whole }, { cookie: person.cookie });
      await listen(person, meditation.id, [{ start: 0, end: 60 }], 60);
      // Yesterday's complete session still carries the streak into today (a day in progress never breaks it).
      expect(await summary(person)).toMatchObject({ totalSessions: 1, currentStreak: 1, totalMinutes: 14 });
    });

    it.each([
      ['no measurement (an app from before honest sessions)', {}, 'This version of the app can no longer record sessions. Please reload or update the app to keep track of your practice.'],
      ['a measurement that is not an object', { listened: 'all of it' }, 'The listening measurement is malformed.'],
      ['an unknown field in the measurement', { listened: { ranges: [], seconds: 1, complete: true } }, 'The listening measurement is malformed.'],
      ['a negative start', { listened: { ranges: [{ start: -1, end: 5 }], seconds: 6 } }, 'Each listened range needs a start and an end, in seconds within the track.'],
      ['a range ending before it starts', { listened: { ranges: [{ start: 10, end: 5 }], seconds: 5 } }, 'Each listened range needs a start and an end, in seconds within the track.'],
      ['a range that is not a number', { listened: { ranges: [{ start: 0, end: null }], seconds: 5 } }, 'Each listened range needs a start and an end, in seconds within the track.'],
      ['a range as a pair', { listened: { ranges: [[0, 5]], seconds: 5 } }, 'Each listened range needs a start and an end, in seconds within the track.'],
      ['too many ranges', { listened: { ranges: Array.from({ length: 501 }, (_, i) => ({ start: i * 2, end: i * 2 + 1 })), seconds: 501 } }, 'Too many listened ranges for one session.'],
      ['a negative listening time', { listened: { ranges: [], seconds: -5 } }, 'The listening time must be a number of seconds no longer than the track at the slowest speed.'],
      ['an endless listening time', { listened: { ranges: [], seconds: 1e12 } }, 'The listening time must be a number of seconds no longer than the track at the slowest speed.'],
      ['a listening time as text', { listened: { ranges: [], seconds: '300' } }, 'The listening time must be a number of seconds no longer than the track at the slowest speed.'],
    ])('refuses %s with a clear 400, and records nothing', async (_label, measurement, message) => {
      const before = await t.database.db.select().from(meditationSessions);
      const res = await post({ id: randomUUID(), meditationId: meditation.id, completedAt: new Date().toISOString(), ...measurement });
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toMatchObject({ code: 'validation/invalid-input', message });
      expect(await t.database.db.select().from(meditationSessions)).toHaveLength(before.length);
    });

    it('keeps the first measurement of a play: a resend cannot turn a partial session into a complete one', async () => {
      const person = await createSignedInUser(t, `resend-${kind}@example.com`);
      const id = randomUUID();
      const send = (ranges: { start: number; end: number }[], seconds: number) =>
        post({ id, meditationId: meditation.id, completedAt: new Date().toISOString(), listened: { ranges, seconds } }, { cookie: person.cookie });
      expect((await send([{ start: 0, end: 30 }], 30)).json()).toMatchObject({ created: true, session: { complete: false } });
      expect((await send([{ start: 0, end: 754 }], 754)).json()).toMatchObject({ created: false, session: { complete: false, durationMinutes: 1 } });
    });

    it('sums seconds before rounding: a complete 25-second session is 25 s, not 0 minutes, and two are a minute (issue 38)', async () => {
      const person = await createSignedInUser(t, `breath-${kind}@example.com`);
      const breath = await buildMeditation(t.database.db, { free: true, durationSeconds: 25, duration: '1 min' });
      expect((await listen(person, breath.id, [{ start: 0, end: 25 }], 25)).json().session).toMatchObject({ complete: true });
      expect(await summary(person)).toMatchObject({ totalSessions: 1, totalMinutes: 0, totalSeconds: 25 });
      await listen(person, breath.id, [{ start: 0, end: 25 }], 25);
      expect(await summary(person)).toMatchObject({ totalSessions: 2, totalMinutes: 1, totalSeconds: 50 });
    });
  });

  describe('practice summary', () => {
    it('counts sessions, minutes, streaks and this week in the user’s timezone', async () => {
      const fresh = await createSignedInUser(t, `streaks-${kind}@example.com`);
      const at = (daysAgo: number) => new Date(Date.now() - daysAgo * 86_400_000).toISOString();
      for (const [i, daysAgo] of [0, 0, 1, 2, 5, 6, 7, 8].entries()) {
        // The second of today's two sessions ends 15 minutes before the first: they may not overlap (issue 33, row 10).
        const completedAt = i === 1 ? new Date(Date.parse(at(0)) - 15 * 60_000).toISOString() : at(daysAgo);
        expect((await post({ id: randomUUID(), meditationId: meditation.id, completedAt, ...whole }, { cookie: fresh.cookie })).statusCode).toBe(201);
      }
      const res = await practice(DAYTIME_ZONE, { cookie: fresh.cookie });
      expect(res.statusCode).toBe(200);
      const body = res.json();
      // Seconds summed, then rounded once (issue 38), for the total and for each day.
      const minutes = (sessions: number) => Math.round((sessions * meditation.durationSeconds!) / 60);
      expect(body).toMatchObject({ totalSessions: 8, totalMinutes: minutes(8), totalSeconds: 8 * meditation.durationSeconds!, currentStreak: 3, longestStreak: 4, showStreaks: true, timezone: DAYTIME_ZONE });
      expect(body.week).toHaveLength(7);
      expect(body.week.find((d: { date: string }) => d.date === body.today)).toMatchObject({ sessions: 2, minutes: minutes(2) });
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
      await post({ id: randomUUID(), meditationId: second.id, completedAt: at(5), ...whole }, { cookie: person.cookie });
      // Sent later (an offline queue), but completed earlier: the latest completion wins, not the latest upload.
      await post({ id: randomUUID(), meditationId: meditation.id, completedAt: at(60), ...whole }, { cookie: person.cookie });
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
