/**
 * Guided breathing exercises as practice sessions (issue 37, item 1): recorded like a timer sitting,
 * their length made on the server from the pattern and length chosen, refused when the body does not
 * add up, with nothing stored. The database itself takes the kind (migration 0022) and keeps a
 * breathing row free of a meditation.
 */
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { BREATHING_MESSAGES } from '#shared/breathing.ts';
import { PRACTICE_MESSAGES } from '#shared/practice.ts';
import { meditationSessions } from '#server/db/schema/practice.ts';
import { buildMeditation } from '#tests/factories.ts';
import { createSignedInUser, origin } from '#tests/setup/auth-helpers.ts';
import { openForSuite } from '#tests/setup/suite-resource.ts';
import { createTestApp } from '#tests/setup/test-app.ts';
import { sessionCalls } from '#server/features/practice/sessions-test-support.ts';
import { testDatabaseKinds } from '#tests/setup/test-db.ts';

describe.each(testDatabaseKinds())('breathing sessions on %s', (kind) => {
  const t = openForSuite(() => createTestApp({ kind }));

  const exercise = (breathing: object, extra: object = {}) => ({ kind: 'breathing', id: randomUUID(), completedAt: new Date().toISOString(), breathing, ...extra });
  const { post, summary, rows, expectRefused } = sessionCalls(t);

  it('records a finished exercise as a breathing session, once however often it is sent, for an account without a subscription', async () => {
    const { cookie } = await createSignedInUser(t, 'breathing-whole@example.com');
    // Three minutes of box breathing: eleven cycles of 16 seconds, 176 seconds.
    const body = exercise({ pattern: 'box', length: { count: 3, unit: 'minutes' }, breathedSeconds: 176 });
    const first = await post(cookie, body);
    expect(first.statusCode).toBe(201);
    expect(first.json()).toEqual({ created: true, session: { id: body.id, kind: 'breathing', meditationId: null, durationMinutes: 3, completedAt: expect.any(String) as string, complete: true } });
    expect((await post(cookie, body)).json()).toMatchObject({ created: false });
    expect(await rows(body.id)).toMatchObject([{ kind: 'breathing', plannedSeconds: 176, listenedSeconds: 176, meditationId: null, complete: true }]);

    const practice = await summary(cookie);
    expect(practice).toMatchObject({ totalSessions: 1, totalMinutes: 3 });
    expect(practice.recent).toEqual([{ id: body.id, kind: 'breathing', meditationId: null, title: null, completedAt: expect.any(String) as string, minutes: 3, trackMinutes: 3, complete: true }]);
  });

  it('counts a short exercise in cycles, and one stopped early by the timer’s rule (partial under 80%)', async () => {
    const { cookie } = await createSignedInUser(t, 'breathing-short@example.com');
    const oneCycle = exercise({ pattern: '4-7-8', length: { count: 1, unit: 'cycles' }, breathedSeconds: 19 }, { completedAt: new Date(Date.now() - 20 * 60_000).toISOString() });
    expect((await post(cookie, oneCycle)).json()).toMatchObject({ session: { kind: 'breathing', complete: true, durationMinutes: 0 } });
    // Ten minutes of coherent breathing (55 cycles of 11 s: 605 s), stopped after two.
    const stopped = exercise({ pattern: 'coherent', length: { count: 10, unit: 'minutes' }, breathedSeconds: 120 });
    expect((await post(cookie, stopped)).json()).toMatchObject({ session: { complete: false, durationMinutes: 2 } });
    expect(await rows(stopped.id)).toMatchObject([{ plannedSeconds: 605 }]);
    const practice = await summary(cookie);
    expect(practice.totalSessions).toBe(1);
    expect(practice.recent.map((r) => [r.kind, r.complete, r.minutes, r.trackMinutes])).toEqual([
      ['breathing', false, 2, 10],
      ['breathing', true, 0, 0],
    ]);
  });

  it.each([
    ['more time breathed than the exercise lasts', exercise({ pattern: '4-7-8', length: { count: 1, unit: 'cycles' }, breathedSeconds: 20 }), BREATHING_MESSAGES.badBreathed],
    ['a negative time breathed', exercise({ pattern: 'box', length: { count: 1, unit: 'cycles' }, breathedSeconds: -1 }), BREATHING_MESSAGES.badBreathed],
    ['a pattern the page does not offer', exercise({ pattern: 'wim-hof', length: { count: 1, unit: 'cycles' }, breathedSeconds: 10 }), BREATHING_MESSAGES.badPattern],
    ['a length the page does not offer', exercise({ pattern: 'box', length: { count: 7, unit: 'minutes' }, breathedSeconds: 10 }), BREATHING_MESSAGES.badLength],
    ['a length in hours', exercise({ pattern: 'box', length: { count: 1, unit: 'hours' }, breathedSeconds: 10 }), BREATHING_MESSAGES.badLength],
    ['a length chosen by the client in seconds', exercise({ pattern: 'box', length: { count: 1, unit: 'cycles' }, breathedSeconds: 10, plannedSeconds: 3600 }), BREATHING_MESSAGES.badBreathing],
    ['a meditation named on a breathing session', exercise({ pattern: 'box', length: { count: 1, unit: 'cycles' }, breathedSeconds: 16 }, { meditationId: randomUUID() }), 'meditationId'],
    ['a timer’s measurement on a breathing session', exercise({ pattern: 'box', length: { count: 1, unit: 'cycles' }, breathedSeconds: 16 }, { timer: { plannedSeconds: 60, satSeconds: 60 } }), 'timer'],
    ['no measurement at all', { kind: 'breathing', id: randomUUID(), completedAt: new Date().toISOString() }, BREATHING_MESSAGES.badBreathing],
    ['an unknown kind', { kind: 'breath', id: randomUUID(), completedAt: new Date().toISOString() }, PRACTICE_MESSAGES.unknownKind],
  ])('refuses %s with a clear message, and records nothing', async (_name, body, message) => {
    const { cookie } = await createSignedInUser(t, `breathing-bad-${randomUUID()}@example.com`);
    await expectRefused(cookie, body, message);
    expect((await summary(cookie)).totalSessions).toBe(0);
  });

  it('refuses visitors', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/sessions', headers: origin(t), payload: exercise({ pattern: 'box', length: { count: 1, unit: 'cycles' }, breathedSeconds: 16 }) });
    expect(res.statusCode).toBe(401);
  });

  it('the database takes the kind, keeps a breathing row free of a meditation, and refuses kinds it does not know', async () => {
    const { userId } = await createSignedInUser(t, 'breathing-check@example.com');
    const meditation = await buildMeditation(t.database.db, { free: true });
    const row = { userId, clientId: randomUUID(), completedAt: new Date(), durationMinutes: 1, listenedSeconds: 60, plannedSeconds: 64 };
    await t.database.db.insert(meditationSessions).values({ ...row, kind: 'breathing' });
    await expect(t.database.db.insert(meditationSessions).values({ ...row, clientId: randomUUID(), kind: 'breathing', meditationId: meditation.id })).rejects.toThrow();
    await expect(t.database.db.execute(sql`insert into meditation_sessions (user_id, client_id, completed_at, kind) values (${userId}, ${randomUUID()}, now(), 'walk')`)).rejects.toThrow();
  });
});
