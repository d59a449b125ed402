/**
 * Issue 33, row 10: practice inflation. 30 overlapping 180-minute timer sittings within 30 minutes were
 * accepted (5 400 minutes in a day); a non-subscriber's session of a premium track was recorded and
 * marked 'Played'; sessions were unbounded per account. One person sits one session at a time (late
 * uploads from an offline device judged against everything stored), only what they could play counts,
 * and a day holds at most SESSIONS_PER_DAY_MAX.
 */
import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PRACTICE_MESSAGES, SESSION_OVERLAP_GRACE_SECONDS, SESSIONS_PER_DAY_MAX } from '#shared/practice.ts';
import { meditationSessions } from '#server/db/schema/practice.ts';
import { syncSubscription } from '#server/features/billing/subscriptions.service.ts';
import { buildMeditation } from '#tests/factories.ts';
import { createSignedInUser, origin } from '#tests/setup/auth-helpers.ts';
import { createTestApp, type TestApp } from '#tests/setup/test-app.ts';
import { testDatabaseKinds } from '#tests/setup/test-db.ts';

const MINUTE = 60_000;

describe.each(testDatabaseKinds())('practice inflation on %s', (kind) => {
  let t: TestApp;
  let premium: { id: string };
  let free: { id: string };
  beforeAll(async () => {
    t = await createTestApp({ kind });
    premium = await buildMeditation(t.database.db, { durationSeconds: 600, duration: '10 min' });
    free = await buildMeditation(t.database.db, { durationSeconds: 600, duration: '10 min', free: true });
  });
  afterAll(() => t.close());

  const post = (cookie: string, payload: object) => t.app.inject({ method: 'POST', url: '/api/sessions', headers: { ...origin(t), cookie }, payload });
  const sitting = (endsAt: number, minutes: number) => ({ kind: 'timer', id: randomUUID(), completedAt: new Date(endsAt).toISOString(), timer: { plannedSeconds: minutes * 60, satSeconds: minutes * 60 } });
  const played = (meditationId: string, endsAt: number, seconds = 600) => ({ id: randomUUID(), meditationId, completedAt: new Date(endsAt).toISOString(), listened: { ranges: [{ start: 0, end: seconds }], seconds } });
  const rows = async (userId: string) => t.database.db.select().from(meditationSessions).where(eq(meditationSessions.userId, userId));

  it('refuses overlapping sittings: 30 three-hour sittings ending a minute apart record one', async () => {
    const person = await createSignedInUser(t, `overlap-${kind}@example.com`);
    const now = Date.now();
    const answers = [];
    for (let i = 0; i < 30; i += 1) answers.push(await post(person.cookie, sitting(now - i * MINUTE, 180)));
    expect(answers.map((a) => a.statusCode)).toEqual([201, ...Array.from({ length: 29 }, () => 409)]);
    expect(answers[1].json().error).toMatchObject({ code: 'database/constraint-violation', message: PRACTICE_MESSAGES.sessionOverlaps });
    expect(await rows(person.userId)).toHaveLength(1);
    const practice = (await t.app.inject({ method: 'GET', url: '/api/practice?tz=UTC', headers: { cookie: person.cookie } })).json();
    expect(practice.totalMinutes).toBe(180);
  });

  it('takes sessions uploaded late from an offline device when they fit, in any order, and a crossfade’s few seconds', async () => {
    const person = await createSignedInUser(t, `offline-${kind}@example.com`);
    const now = Date.now();
    // Sent newest first, as a queue may: each ended where the next began, the last two a crossfade apart.
    expect((await post(person.cookie, played(free.id, now))).statusCode).toBe(201);
    expect((await post(person.cookie, played(free.id, now - 10 * MINUTE + 5_000))).statusCode).toBe(201);
    expect((await post(person.cookie, sitting(now - 20 * MINUTE, 10))).statusCode).toBe(201);
    expect((await post(person.cookie, sitting(now - 3 * 60 * MINUTE, 20))).statusCode).toBe(201);
    // One that falls inside what is already there is refused, even when it arrives last; a retry of a stored one is answered as stored.
    expect((await post(person.cookie, sitting(now - 5 * MINUTE, 5))).statusCode).toBe(409);
    const first = played(free.id, now - 2 * 60 * MINUTE);
    expect((await post(person.cookie, first)).statusCode).toBe(201);
    expect((await post(person.cookie, first)).statusCode).toBe(200);
    expect(await rows(person.userId)).toHaveLength(5);
    expect(SESSION_OVERLAP_GRACE_SECONDS).toBeGreaterThanOrEqual(5);
  });

  it('records a premium track only for someone who could play it then; free tracks and timer sittings for anyone', async () => {
    const member = await createSignedInUser(t, `non-subscriber-${kind}@example.com`);
    const now = Date.now();
    const refused = await post(member.cookie, played(premium.id, now));
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error).toMatchObject({ code: 'subscription/required', message: PRACTICE_MESSAGES.needsSubscription });
    expect((await t.app.inject({ method: 'GET', url: '/api/practice/played', headers: { cookie: member.cookie } })).json()).toEqual({ ids: [] });
    expect((await post(member.cookie, played(free.id, now - 30 * MINUTE))).statusCode).toBe(201);
    expect((await post(member.cookie, sitting(now - 60 * MINUTE, 10))).statusCode).toBe(201);

    // A subscriber can; so can someone whose subscription covered the session but has lapsed since (an offline upload).
    const lapsed = await createSignedInUser(t, `lapsed-${kind}@example.com`);
    await syncSubscription({ db: t.database.db, userId: lapsed.userId, snapshot: { provider: 'comped', status: 'active', plan: 'comped', currentPeriodEnd: new Date(now + 864e5) } });
    await t.database.db.execute(sql`update subscribers set created_at = now() - interval '10 days' where user_id = ${lapsed.userId}`);
    expect((await post(lapsed.cookie, played(premium.id, now - 2 * 864e5))).statusCode).toBe(201);
    await syncSubscription({ db: t.database.db, userId: lapsed.userId, snapshot: { provider: 'comped', status: 'expired', plan: 'comped', currentPeriodEnd: new Date(now - 864e5) } });
    expect((await post(lapsed.cookie, played(premium.id, now - 3 * 864e5))).statusCode).toBe(201);
    expect((await post(lapsed.cookie, played(premium.id, now - 60 * MINUTE))).statusCode).toBe(403);
  });

  it(`holds at most ${SESSIONS_PER_DAY_MAX} sessions of one account on one day`, async () => {
    const person = await createSignedInUser(t, `busy-${kind}@example.com`);
    // Midday UTC yesterday: the day's sessions, made in the database, short plays one minute apart.
    const noon = Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), new Date().getUTCDate() - 1, 12);
    await t.database.db.insert(meditationSessions).values(
      Array.from({ length: SESSIONS_PER_DAY_MAX - 1 }, (_, i) => ({ userId: person.userId, meditationId: free.id, clientId: randomUUID(), completedAt: new Date(noon - (i + 1) * MINUTE), durationMinutes: 0, listenedSeconds: 5, complete: false })),
    );
    expect((await post(person.cookie, played(free.id, noon + 10 * MINUTE, 5))).statusCode).toBe(201);
    const refused = await post(person.cookie, played(free.id, noon + 20 * MINUTE, 5));
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error.message).toBe(PRACTICE_MESSAGES.tooManySessions);
    // The next day is a new day.
    expect((await post(person.cookie, played(free.id, noon + 12 * 60 * MINUTE + 5_000, 5))).statusCode).toBe(201);
    expect(await rows(person.userId)).toHaveLength(SESSIONS_PER_DAY_MAX + 1);
  });
});
