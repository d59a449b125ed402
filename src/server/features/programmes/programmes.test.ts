import { randomUUID } from 'node:crypto';
import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROGRAMME_MESSAGES as M } from '#shared/programmes.ts';
import { adminAuditLog } from '#server/db/schema/admin.ts';
import { userRoles } from '#server/db/schema/auth.ts';
import { subscribers } from '#server/db/schema/billing.ts';
import { meditationSessions } from '#server/db/schema/practice.ts';
import { programmeEnrolments, programmes } from '#server/db/schema/programmes.ts';
import { buildMeditation } from '#tests/factories.ts';
import { createSignedInUser, nextIp, origin } from '#tests/setup/auth-helpers.ts';
import { createTestApp, type TestApp } from '#tests/setup/test-app.ts';
import { testDatabaseKinds } from '#tests/setup/test-db.ts';

type Person = { cookie: string; userId: string };

describe.each(testDatabaseKinds())('programmes (issue 37, item 2) on %s', (kind) => {
  let t: TestApp;
  let admin: Person;
  let editor: Person;
  let member: Person;
  let visitorAccount: Person;
  let free: { id: string };
  let paid: { id: string }[];
  let programmeId: string;
  const slug = `calm-${kind}`;

  beforeAll(async () => {
    t = await createTestApp({ kind });
    admin = await createSignedInUser(t, `prog-admin-${kind}@example.com`);
    editor = await createSignedInUser(t, `prog-editor-${kind}@example.com`);
    member = await createSignedInUser(t, `prog-member-${kind}@example.com`);
    visitorAccount = await createSignedInUser(t, `prog-plain-${kind}@example.com`);
    await t.database.db.insert(userRoles).values([
      { userId: admin.userId, role: 'admin', assignedBy: null },
      { userId: editor.userId, role: 'editor', assignedBy: null },
    ]);
    await t.database.db.insert(subscribers).values({ userId: member.userId, status: 'active', plan: 'monthly', provider: 'sandbox', providerSubscriptionId: `sandbox_${randomUUID()}`, currentPeriodEnd: new Date(Date.now() + 30 * 86_400_000) });
    free = await buildMeditation(t.database.db, { title: 'Free first day', free: true });
    paid = [await buildMeditation(t.database.db, { title: 'Paid second day' }), await buildMeditation(t.database.db, { title: 'Paid third day' })];
  });
  afterAll(() => t.close());

  const call = (method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', url: string, who: Person | null, payload?: object) =>
    t.app.inject({ method, url, remoteAddress: nextIp(), headers: { ...origin(t), ...(who ? { cookie: who.cookie } : {}) }, ...(payload ? { payload } : {}) });
  const body = (over: Record<string, unknown> = {}) => ({
    slug,
    title: 'Seven Days of Calm',
    description: 'A gentle week.',
    cover: 'mindfulness',
    days: [{ meditationId: free.id, reflection: 'What did you notice?' }, { meditationId: paid[0].id }, { meditationId: paid[1].id, reflection: null }],
    ...over,
  });
  const programmeRows = async () => (await t.database.db.select({ n: count() }).from(programmes)).at(0)!.n;
  const session = (who: Person, meditationId: string, completedAt: Date, complete = true) =>
    t.database.db.insert(meditationSessions).values({ userId: who.userId, meditationId, clientId: randomUUID(), completedAt, complete, durationMinutes: 5, listenedSeconds: 300 });

  it('lets only staff manage programmes, and refuses bad input with a clear message and no change', async () => {
    expect((await call('POST', '/api/admin/programmes', null, body())).statusCode).toBe(401);
    expect((await call('POST', '/api/admin/programmes', member, body())).statusCode).toBe(403);
    expect((await call('GET', '/api/admin/programmes', member)).statusCode).toBe(403);
    const before = await programmeRows();
    const refusals: [Record<string, unknown>, string][] = [
      [{ slug: 'Not A Slug' }, M.badSlug],
      [{ title: '' }, M.badTitle],
      [{ cover: 'nowhere' }, M.badCover],
      [{ days: [{ meditationId: free.id }] }, M.badDays],
      [{ days: [{ meditationId: paid[0].id }, { meditationId: free.id }] }, M.dayOneNotFree],
      [{ days: [{ meditationId: free.id }, { meditationId: randomUUID() }] }, M.unknownMeditation],
      [{ days: [{ meditationId: free.id, reflection: 'x'.repeat(501) }, { meditationId: paid[0].id }] }, M.badReflection],
      [{ extra: true }, M.extraField],
    ];
    for (const [over, message] of refusals) {
      const res = await call('POST', '/api/admin/programmes', admin, body(over));
      expect(res.statusCode, JSON.stringify(over)).toBe(400);
      expect(res.json().error.message).toBe(message);
    }
    expect(await programmeRows()).toBe(before);
  });

  it('an editor creates, and an admin publishes and orders; each change is audited; the public sees only published ones', async () => {
    const created = await call('POST', '/api/admin/programmes', editor, body());
    expect(created.statusCode, created.body).toBe(201);
    programmeId = created.json().id;
    expect(created.json()).toMatchObject({ slug, published: false, dayCount: 3 });
    expect((await call('POST', '/api/admin/programmes', editor, body())).json().error.message).toBe(M.slugTaken);

    expect((await call('GET', '/api/programmes', null)).json().programmes.map((p: { slug: string }) => p.slug)).not.toContain(slug);
    expect((await call('GET', `/api/programmes/${slug}`, null)).statusCode).toBe(404);

    const published = await call('PUT', `/api/admin/programmes/${programmeId}/published`, admin, { published: true });
    expect(published.statusCode, published.body).toBe(200);
    const listed = (await call('GET', '/api/programmes', null)).json().programmes;
    expect(listed.find((p: { slug: string }) => p.slug === slug)).toMatchObject({ title: 'Seven Days of Calm', dayCount: 3, cover: 'mindfulness' });
    const detail = (await call('GET', `/api/programmes/${slug}`, null)).json();
    expect(detail.days.map((d: { number: number; meditation: { title: string; free: boolean }; reflection: string | null }) => [d.number, d.meditation.title, d.meditation.free, d.reflection])).toEqual([
      [1, 'Free first day', true, 'What did you notice?'],
      [2, 'Paid second day', false, null],
      [3, 'Paid third day', false, null],
    ]);

    const second = (await call('POST', '/api/admin/programmes', admin, body({ slug: `${slug}-two`, title: 'Second', published: true }))).json();
    const all = (await call('GET', '/api/admin/programmes', admin)).json().programmes.map((p: { id: string }) => p.id);
    expect((await call('PUT', '/api/admin/programmes-order', admin, { ids: [second.id] })).json().error.message).toBe(M.badOrder);
    const ordered = await call('PUT', '/api/admin/programmes-order', admin, { ids: [...all].reverse() });
    expect(ordered.statusCode, ordered.body).toBe(200);
    const publicOrder = (await call('GET', '/api/programmes', null)).json().programmes.map((p: { slug: string }) => p.slug);
    expect(publicOrder.indexOf(`${slug}-two`)).toBeLessThan(publicOrder.indexOf(slug));
    expect((await call('DELETE', `/api/admin/programmes/${second.id}`, admin)).statusCode).toBe(200);

    const actions = (await t.database.db.select({ action: adminAuditLog.action }).from(adminAuditLog)).map((r) => r.action);
    for (const action of ['programme.create', 'programme.publish', 'programme.order', 'programme.delete']) expect(actions).toContain(action);
  });

  it('starts, counts complete sessions only, waits for the next day or opens it at once, and syncs through the server', async () => {
    expect((await call('POST', `/api/programmes/${slug}/enrolment`, null, { timeZone: 'Europe/London' })).statusCode).toBe(401);
    expect((await call('POST', `/api/programmes/${slug}/enrolment`, member, { timeZone: 'Mars/Olympus' })).json().error.message).toBe(M.badTimezone);
    expect((await call('POST', '/api/programmes/no-such-thing/enrolment', member, { timeZone: 'UTC' })).statusCode).toBe(404);
    expect((await call('GET', `/api/programmes/${slug}/progress`, member)).json()).toEqual({ progress: null });

    const started = await call('POST', `/api/programmes/${slug}/enrolment`, member, { timeZone: 'UTC' });
    expect(started.statusCode, started.body).toBe(200);
    expect(started.json().progress).toMatchObject({ title: 'Seven Days of Calm', current: 1, dayCount: 3, doneCount: 0, opensOn: null });

    // A partial session does not do the day; a complete one does.
    await session(member, free.id, new Date(), false);
    expect((await call('GET', `/api/programmes/${slug}/progress`, member)).json().progress.doneCount).toBe(0);
    await session(member, free.id, new Date());
    const afterDay1 = (await call('GET', '/api/me/programmes', member)).json().enrolments[0];
    expect(afterDay1).toMatchObject({ slug, doneCount: 1, current: 2 });
    // Day 2 waits for tomorrow unless the person chooses "Don't wait" (the test may run a second before midnight).
    if (afterDay1.opensOn) {
      const opened = await call('POST', `/api/programmes/${slug}/enrolment/open-next`, member);
      expect(opened.statusCode, opened.body).toBe(200);
      expect(opened.json().progress).toMatchObject({ current: 2, opensOn: null });
      expect(opened.json().progress.days[1].state).toBe('open');
    }
    expect((await call('POST', `/api/programmes/${slug}/enrolment/open-next`, member)).statusCode).toBe(409);

    // Starting again from another device changes nothing; restarting starts over.
    expect((await call('POST', `/api/programmes/${slug}/enrolment`, member, { timeZone: 'UTC' })).json().progress.doneCount).toBe(1);
    const restarted = await call('POST', `/api/programmes/${slug}/enrolment`, member, { timeZone: 'UTC', restart: true });
    expect(restarted.json().progress).toMatchObject({ doneCount: 0, current: 1 });

    // Leaving removes the enrolment only; the sessions stay.
    expect((await call('DELETE', `/api/programmes/${slug}/enrolment`, member)).json()).toEqual({ left: true });
    expect((await call('DELETE', `/api/programmes/${slug}/enrolment`, member)).statusCode).toBe(404);
    expect((await call('GET', '/api/me/programmes', member)).json().enrolments).toEqual([]);
    expect((await t.database.db.select({ n: count() }).from(meditationSessions).where(eq(meditationSessions.userId, member.userId))).at(0)!.n).toBe(2);
  });

  it('plays day 1 free for anyone and the other days only with the subscription, through the one playback check', async () => {
    expect((await call('GET', `/api/meditations/${free.id}/playback`, null)).statusCode).toBe(200);
    expect((await call('GET', `/api/meditations/${paid[0].id}/playback`, visitorAccount)).statusCode).toBe(403);
    expect((await call('GET', `/api/meditations/${paid[0].id}/playback`, member)).statusCode).toBe(200);
    // Someone without the subscription may still start the programme (day 1 is theirs to try).
    expect((await call('POST', `/api/programmes/${slug}/enrolment`, visitorAccount, { timeZone: 'Europe/Paris' })).statusCode).toBe(200);
    // What the server keeps of it is in the person's export.
    const exported = (await call('GET', '/api/account/export', visitorAccount)).json();
    expect(exported.programmes).toEqual([expect.objectContaining({ slug, title: 'Seven Days of Calm', timeZone: 'Europe/Paris', openedEarly: 0 })]);
  });

  it('keeps day 1 of a published programme free: clearing its "Free to try" is refused until the programme is withdrawn', async () => {
    const refused = await call('PATCH', `/api/admin/meditations/${free.id}`, editor, { free: false });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error.message).toBe(M.stillDayOne);
    expect((await call('GET', `/api/meditations/${free.id}/playback`, null)).statusCode).toBe(200);
  });

  it('keeps one person’s progress from another, and an unpublished programme from everyone but staff', async () => {
    expect((await call('GET', '/api/me/programmes', member)).json().enrolments).toEqual([]);
    expect((await call('PUT', `/api/admin/programmes/${programmeId}/published`, admin, { published: false })).statusCode).toBe(200);
    expect((await call('GET', '/api/me/programmes', visitorAccount)).json().enrolments).toEqual([]);
    expect((await call('GET', `/api/programmes/${slug}/progress`, visitorAccount)).statusCode).toBe(404);
    expect((await call('POST', `/api/programmes/${slug}/enrolment`, member, { timeZone: 'UTC' })).statusCode).toBe(404);
    // Withdrawn, its day 1 may stop being free; publishing re-checks day 1 and refuses it then.
    expect((await call('PATCH', `/api/admin/meditations/${free.id}`, editor, { free: false })).statusCode).toBe(200);
    const republish = await call('PUT', `/api/admin/programmes/${programmeId}/published`, admin, { published: true });
    expect(republish.statusCode).toBe(400);
    expect(republish.json().error.message).toBe(M.dayOneNotFree);
    expect((await call('PATCH', `/api/admin/meditations/${free.id}`, editor, { free: true })).statusCode).toBe(200);
    const edited = await call('PUT', `/api/admin/programmes/${programmeId}`, admin, body({ title: 'Seven Days of Calm, again' }));
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json().title).toBe('Seven Days of Calm, again');
    const enrolments = await t.database.db.select().from(programmeEnrolments).where(eq(programmeEnrolments.userId, visitorAccount.userId));
    expect(enrolments).toHaveLength(1);
  });
});
