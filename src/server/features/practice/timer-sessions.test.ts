/**
 * Timer sittings as practice sessions (issue 20, item 1): recorded like a guided play, credited by
 * the time sat against the length chosen, refused when the body does not add up.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { TIMER_MESSAGES } from '#shared/timer.ts';
import { PRACTICE_MESSAGES } from '#shared/practice.ts';
import { buildMeditation } from '#tests/factories.ts';
import { createSignedInUser, origin } from '#tests/setup/auth-helpers.ts';
import { openForSuite } from '#tests/setup/suite-resource.ts';
import { createTestApp } from '#tests/setup/test-app.ts';
import { sessionCalls } from '#server/features/practice/sessions-test-support.ts';
import { testDatabaseKinds } from '#tests/setup/test-db.ts';

describe.each(testDatabaseKinds())('timer sessions on %s', (kind) => {
  const t = openForSuite(() => createTestApp({ kind }));

  const sitting = (plannedSeconds: number, satSeconds: number, extra: object = {}) => ({ kind: 'timer', id: randomUUID(), completedAt: new Date().toISOString(), timer: { plannedSeconds, satSeconds }, ...extra });
  const { post, summary, rows, expectRefused } = sessionCalls(t);

  it('records a whole sitting like a guided session, once however often it is sent, for an account without a subscription', async () => {
    const { cookie } = await createSignedInUser(t, 'timer-whole@example.com');
    const body = sitting(20 * 60, 20 * 60);
    const first = await post(cookie, body);
    expect(first.statusCode).toBe(201);
    expect(first.json()).toEqual({ created: true, session: { id: body.id, kind: 'timer', meditationId: null, durationMinutes: 20, completedAt: expect.any(String) as string, complete: true } });
    expect((await post(cookie, body)).json()).toMatchObject({ created: false });
    expect(await rows(body.id)).toHaveLength(1);

    const practice = await summary(cookie);
    expect(practice).toMatchObject({ totalSessions: 1, totalMinutes: 20, currentStreak: 1, lastMeditationId: null });
    expect(practice.recent).toEqual([{ id: body.id, kind: 'timer', meditationId: null, title: null, completedAt: expect.any(String) as string, minutes: 20, trackMinutes: 20, complete: true }]);
  });

  it('counts a sitting ended early by the same rule as a track: 5 minutes of a long one completes it, less is partial', async () => {
    const { cookie } = await createSignedInUser(t, 'timer-partial@example.com');
    // One sitting after the other (issue 33, row 10: sittings of one person may not overlap).
    const partial = sitting(20 * 60, 4 * 60 + 30, { completedAt: new Date(Date.now() - 10 * 60_000).toISOString() });
    const enough = sitting(30 * 60, 5 * 60);
    expect((await post(cookie, partial)).json()).toMatchObject({ session: { complete: false, durationMinutes: 5 } });
    expect((await post(cookie, enough)).json()).toMatchObject({ session: { complete: true, durationMinutes: 5 } });
    const practice = await summary(cookie);
    expect(practice).toMatchObject({ totalSessions: 1, totalMinutes: 10 });
    expect(practice.recent.map((r) => [r.complete, r.minutes, r.trackMinutes]).sort()).toEqual([[false, 5, 20], [true, 5, 30]].sort());
  });

  it('sits alongside guided sessions: both count, and "Continue" still names the last meditation', async () => {
    const { cookie } = await createSignedInUser(t, 'timer-mixed@example.com');
    const meditation = await buildMeditation(t.database.db, { free: true, durationSeconds: 300, duration: '5 min' });
    const guided = { id: randomUUID(), meditationId: meditation.id, completedAt: new Date(Date.now() - 11 * 60_000).toISOString(), listened: { ranges: [{ start: 0, end: 300 }], seconds: 300 } };
    expect((await post(cookie, guided)).statusCode).toBe(201);
    expect((await post(cookie, sitting(10 * 60, 10 * 60))).statusCode).toBe(201);
    const practice = await summary(cookie);
    expect(practice).toMatchObject({ totalSessions: 2, totalMinutes: 15, lastMeditationId: meditation.id });
    expect(practice.recent.map((r) => r.kind)).toEqual(['timer', 'guided']);
  });

  it.each([
    ['more time sat than chosen', sitting(10 * 60, 10 * 60 + 1), TIMER_MESSAGES.badSat],
    ['a length that is not whole minutes', sitting(10 * 60 + 30, 60), TIMER_MESSAGES.badLength],
    ['a length beyond three hours', sitting(181 * 60, 60), TIMER_MESSAGES.badLength],
    ['a length under a minute', sitting(30, 30), TIMER_MESSAGES.badLength],
    ['a negative time sat', sitting(10 * 60, -5), TIMER_MESSAGES.badSat],
    ['a meditation named on a timer session', sitting(10 * 60, 600, { meditationId: randomUUID() }), 'meditationId'],
    ['a guided measurement on a timer session', sitting(10 * 60, 600, { listened: { ranges: [], seconds: 0 } }), 'listened'],
    ['no measurement at all', { kind: 'timer', id: randomUUID(), completedAt: new Date().toISOString() }, TIMER_MESSAGES.badTimer],
    ['an unknown kind', { kind: 'walk', id: randomUUID(), completedAt: new Date().toISOString() }, PRACTICE_MESSAGES.unknownKind],
  ])('refuses %s with a clear message, and records nothing', async (_name, body, message) => {
    const { cookie } = await createSignedInUser(t, `timer-bad-${randomUUID()}@example.com`);
    await expectRefused(cookie, body, message);
  });

  it('refuses visitors', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/sessions', headers: origin(t), payload: sitting(600, 600) });
    expect(res.statusCode).toBe(401);
  });
});
