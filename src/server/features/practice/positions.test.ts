import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { playbackPositions } from '#server/db/schema/practice.ts';
import { buildMeditation } from '#tests/factories.ts';
import { createSignedInUser, origin } from '#tests/setup/auth-helpers.ts';
import { createTestApp, type TestApp } from '#tests/setup/test-app.ts';
import { testDatabaseKinds } from '#tests/setup/test-db.ts';

describe.each(testDatabaseKinds())('resume positions (issue 20, item 2) on %s', (kind) => {
  let t: TestApp;
  let person: { cookie: string; userId: string };
  let meditation: { id: string };

  beforeAll(async () => {
    t = await createTestApp({ kind });
    person = await createSignedInUser(t, 'resume@example.com');
    meditation = await buildMeditation(t.database.db, { durationSeconds: 600, duration: '10 min' });
  });
  afterAll(() => t.close());

  const save = (meditationId: string, payload: object, cookie = person.cookie) =>
    t.app.inject({ method: 'PUT', url: `/api/practice/positions/${meditationId}`, headers: { ...origin(t), cookie }, payload });
  const list = async (cookie = person.cookie) => (await t.app.inject({ method: 'GET', url: '/api/practice/positions', headers: { cookie } })).json<{ positions: { meditationId: string; positionSeconds: number; updatedAt: string }[] }>().positions;
  const ago = (seconds: number) => new Date(Date.now() - seconds * 1000).toISOString();

  it('keeps the newest position across devices, whatever order the saves arrive in', async () => {
    const phone = await save(meditation.id, { positionSeconds: 452.4, updatedAt: ago(10) });
    expect(phone.statusCode).toBe(200);
    expect(phone.json()).toMatchObject({ saved: true, position: { meditationId: meditation.id, positionSeconds: 452 } });
    // A laptop that was offline sends an older position late: it does not win.
    const late = await save(meditation.id, { positionSeconds: 60, updatedAt: ago(120) });
    expect(late.json()).toMatchObject({ saved: false, position: { positionSeconds: 452 } });
    expect(await list()).toEqual([{ meditationId: meditation.id, positionSeconds: 452, updatedAt: phone.json().position.updatedAt }]);
    // A newer one does.
    expect((await save(meditation.id, { positionSeconds: 500, updatedAt: ago(1) })).json()).toMatchObject({ saved: true, position: { positionSeconds: 500 } });
    expect((await list()).map((p) => p.positionSeconds)).toEqual([500]);
  });

  it('decides two saves at once by their time, not by who writes last', async () => {
    const track = await buildMeditation(t.database.db, { durationSeconds: 600 });
    const newest = ago(1);
    await Promise.all([save(track.id, { positionSeconds: 100, updatedAt: ago(30) }), save(track.id, { positionSeconds: 300, updatedAt: newest }), save(track.id, { positionSeconds: 200, updatedAt: ago(20) })]);
    expect((await list()).find((p) => p.meditationId === track.id)).toMatchObject({ positionSeconds: 300 });
  });

  it('forgets a finished meditation (position 0) and keeps each person’s positions their own', async () => {
    const track = await buildMeditation(t.database.db, { durationSeconds: 600 });
    await save(track.id, { positionSeconds: 120, updatedAt: ago(5) });
    const other = await createSignedInUser(t, `resume-other-${kind}@example.com`);
    expect(await list(other.cookie)).toEqual([]);
    await save(track.id, { positionSeconds: 0, updatedAt: ago(1) });
    expect((await list()).some((p) => p.meditationId === track.id)).toBe(false);
  });

  it('caps a position at the track’s real length', async () => {
    const track = await buildMeditation(t.database.db, { durationSeconds: 90 });
    expect((await save(track.id, { positionSeconds: 5000, updatedAt: ago(1) })).json().position.positionSeconds).toBe(90);
  });

  it.each([
    ['a negative position', { positionSeconds: -1, updatedAt: new Date().toISOString() }, 'The position must be a number of seconds within the track.'],
    ['a position as text', { positionSeconds: '60', updatedAt: new Date().toISOString() }, 'The position must be a number of seconds within the track.'],
    ['no time', { positionSeconds: 60 }, 'A time for the position is required.'],
    ['a time an hour ahead', { positionSeconds: 60, updatedAt: new Date(Date.now() + 3_600_000).toISOString() }, 'This position’s time is in the future.'],
    ['an unknown field', { positionSeconds: 60, updatedAt: new Date().toISOString(), userId: 'someone-else' }, 'Unrecognized key: "userId"'],
  ])('refuses %s with a clear 400, and changes nothing', async (_label, payload, message) => {
    const track = await buildMeditation(t.database.db, { durationSeconds: 600 });
    const res = await save(track.id, payload);
    expect(res.statusCode).toBe(400);
    expect(res.json().error.message).toBe(message);
    expect((await t.database.db.select().from(playbackPositions)).some((p) => p.meditationId === track.id)).toBe(false);
  });

  it('answers 404 for an unknown meditation and 401 to visitors', async () => {
    expect((await save(randomUUID(), { positionSeconds: 1, updatedAt: new Date().toISOString() })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'PUT', url: `/api/practice/positions/${meditation.id}`, headers: origin(t), payload: { positionSeconds: 1, updatedAt: new Date().toISOString() } })).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'GET', url: '/api/practice/positions' })).statusCode).toBe(401);
  });
});
