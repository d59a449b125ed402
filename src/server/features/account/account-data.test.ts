import { randomUUID } from 'node:crypto';
import { eq, sql, type SQL } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminAuditLog } from '#server/db/schema/admin.ts';
import { waitlistEntries } from '#server/db/schema/waitlist.ts';
import { account, session, user, userRoles } from '#server/db/schema/auth.ts';
import { securityAuditLog } from '#server/db/schema/security.ts';
import { subscribers } from '#server/db/schema/billing.ts';
import { meditationSessions, practicePreferences } from '#server/db/schema/practice.ts';
import { favourites } from '#server/db/schema/favourites.ts';
import { pushSubscriptions, reminderSettings } from '#server/db/schema/reminders.ts';
import { assignRole } from '#server/features/admin/roles.service.ts';
import { buildMeditation, buildSession } from '#tests/factories.ts';
import { fakeSubscription, startFakeStripe, type FakeStripe } from '#tests/fakes/fake-stripe.ts';
import { createSignedInUser, origin, signIn } from '#tests/setup/auth-helpers.ts';
import { readOutbox } from '#tests/setup/outbox.ts';
import { createTestApp, type TestApp } from '#tests/setup/test-app.ts';
import { testDatabaseKinds } from '#tests/setup/test-db.ts';

const PASSWORD = 'calm-waters-1';

describe.each(testDatabaseKinds())('account data (issue 18) on %s', (kind) => {
  let t: TestApp;
  let meditationId: string;
  beforeAll(async () => {
    t = await createTestApp({ kind });
    meditationId = (await buildMeditation(t.database.db, { title: 'Harbour at Dusk' })).id;
  });
  afterAll(() => t.close());

  const exportOf = (cookie?: string) => t.app.inject({ method: 'GET', url: '/api/account/export', headers: cookie ? { cookie } : {} });
  const remove = (cookie: string, payload: object) => t.app.inject({ method: 'POST', url: '/api/account/delete', headers: { ...origin(t), cookie }, payload });

  /** A person with something in every table that is theirs. */
  async function personWithData(email: string) {
    const person = await createSignedInUser(t, email, PASSWORD, 'Rowan Reed');
    const db = t.database.db;
    await db.insert(favourites).values({ userId: person.userId, meditationId });
    await db.insert(meditationSessions).values({ userId: person.userId, meditationId, clientId: randomUUID(), durationMinutes: 5, completedAt: new Date() });
    await db.insert(practicePreferences).values({ userId: person.userId, showStreaks: false, focus: 'sleep' });
    await db.insert(reminderSettings).values({ userId: person.userId, enabled: true, time: '07:30', days: [0, 2, 4], timeZone: 'Europe/London' });
    await db.insert(pushSubscriptions).values({ userId: person.userId, endpoint: `https://fcm.googleapis.com/fcm/send/${randomUUID()}`, p256dh: 'p256dh-key', auth: 'auth-secret-key' });
    await db.insert(waitlistEntries).values({ name: 'Rowan Reed', email: email.toUpperCase(), reason: 'sleep' });
    await db.insert(subscribers).values({ userId: person.userId, status: 'trialing', plan: 'yearly', provider: 'sandbox', providerSubscriptionId: `sandbox_${randomUUID()}`, currentPeriodEnd: new Date(Date.now() + 7 * 86_400_000) });
    // A failed sign-in: a security event by address.
    expect((await signIn(t, email, 'not-the-password')).statusCode).toBe(401);
    return person;
  }

  it('exports everything the server holds about the person as one JSON file, without a single secret, to them only', async () => {
    expect((await exportOf()).statusCode).toBe(401);
    const person = await personWithData(`export-${kind}@example.com`);
    const res = await exportOf(person.cookie);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="harbour-mind-data-\d{4}-\d{2}-\d{2}\.json"$/);
    expect(res.headers['cache-control']).toBe('no-store');
    const data = res.json();
    expect(data).toMatchObject({
      format: 1,
      profile: { id: person.userId, email: `export-${kind}@example.com`, name: 'Rowan Reed', emailVerified: true },
      signInMethods: [{ provider: 'email and password' }],
      role: 'user',
      subscription: { provider: 'sandbox', plan: 'yearly', status: 'trialing' },
      favourites: [{ meditationId, title: 'Harbour at Dusk' }],
      completedSessions: [{ meditationId, title: 'Harbour at Dusk', minutes: 5, complete: true }],
      practicePreferences: { showStreaks: false, focus: 'sleep' },
      reminders: { settings: { enabled: true, time: '07:30', days: [0, 2, 4], timeZone: 'Europe/London' }, devices: [{ pushService: 'fcm.googleapis.com', lastSentAt: null }] },
      waitlist: { name: 'Rowan Reed', reason: 'sleep' },
    });
    expect(data.sessions.length).toBeGreaterThanOrEqual(1);
    expect(data.securityEvents.map((e: { type: string }) => e.type)).toContain('failed_login');

    // No token, hash or App Store account token, however it might be named.
    const db = t.database.db;
    const [secrets] = await db.select({ token: session.token }).from(session).where(eq(session.userId, person.userId));
    const [hash] = await db.select({ password: account.password }).from(account).where(eq(account.userId, person.userId));
    const [tokenRow] = await db.select({ appAccountToken: user.appAccountToken }).from(user).where(eq(user.id, person.userId));
    for (const secret of [secrets.token, hash.password!, tokenRow.appAccountToken, 'auth-secret-key', '/fcm/send/']) expect(res.body).not.toContain(secret);
    expect(res.body).not.toMatch(/"(token|password|accessToken|refreshToken|idToken|appAccountToken)"/);

    // Another person's export holds none of it.
    const other = await createSignedInUser(t, `export-other-${kind}@example.com`);
    const theirs = (await exportOf(other.cookie)).json();
    expect(theirs).toMatchObject({ favourites: [], completedSessions: [], subscription: null, waitlist: null, securityEvents: [] });
  });

  it('allows a few exports an hour', async () => {
    const person = await createSignedInUser(t, `export-limit-${kind}@example.com`);
    const codes = [];
    for (let i = 0; i < 6; i += 1) codes.push((await exportOf(person.cookie)).statusCode);
    expect(codes).toEqual([200, 200, 200, 200, 200, 429]);
  });

  it('deletes an account only with its password and the typed word, and changes nothing otherwise', async () => {
    const email = `delete-${kind}@example.com`;
    const person = await personWithData(email);
    const refusals: [object, number, string][] = [
      [{ password: PASSWORD }, 400, 'Please type DELETE to confirm.'],
      [{ password: PASSWORD, confirmation: 'delete me' }, 400, 'Please type DELETE to confirm.'],
      [{ confirmation: 'DELETE' }, 400, 'Please enter your password.'],
      [{ password: 'wrong-password-1', confirmation: 'DELETE' }, 401, 'Your password is not correct.'],
      // Passwords are only ever hashed, so any character may be in one: this is simply not the password.
      [{ password: `x\u0000`, confirmation: 'DELETE' }, 401, 'Your password is not correct.'],
    ];
    for (const [body, status, message] of refusals) {
      const res = await remove(person.cookie, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(status);
      if (message) expect(res.json().error.message).toBe(message);
    }
    expect((await t.app.inject({ method: 'POST', url: '/api/account/delete', headers: origin(t), payload: { password: PASSWORD, confirmation: 'DELETE' } })).statusCode).toBe(401);
    // Nothing changed.
    expect((await exportOf(person.cookie)).json().favourites).toHaveLength(1);
  });

  it('deletes the account and everything tied to it, de-identifies its log lines, records the deletion without naming anyone, and sends a confirmation', async () => {
    const email = `gone-${kind}@example.com`;
    const person = await personWithData(email);
    const db = t.database.db;
    const info = await t.app.inject({ method: 'GET', url: '/api/account/deletion', headers: { cookie: person.cookie } });
    expect(info.json()).toEqual({ hasPassword: true, subscription: 'sandbox' });

    const res = await remove(person.cookie, { password: PASSWORD, confirmation: ' DELETE ' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ deleted: true, appStoreSubscription: false });
    expect(String(res.headers['set-cookie'])).toContain('better-auth.session_token=;');

    const countWhere = async (table: PgTable, where: SQL | undefined) => (await db.select({ n: sql<number>`count(*)::int` }).from(table).where(where))[0].n;
    expect(await countWhere(user, eq(user.id, person.userId))).toBe(0);
    for (const table of [session, account, userRoles, subscribers, favourites, meditationSessions, practicePreferences, reminderSettings, pushSubscriptions]) expect(await countWhere(table, eq(table.userId, person.userId))).toBe(0);
    expect(await countWhere(waitlistEntries, sql`lower(${waitlistEntries.email}) = ${email}`)).toBe(0);
    expect(await countWhere(securityAuditLog, sql`${securityAuditLog.userId} = ${person.userId} or lower(${securityAuditLog.userEmail}) = ${email}`)).toBe(0);
    // The catalogue is untouched.
    expect((await t.app.inject({ method: 'GET', url: `/api/meditations/${meditationId}` })).statusCode).toBe(200);

    const audit = await db.select().from(adminAuditLog).where(eq(adminAuditLog.action, 'account.delete'));
    expect(audit.length).toBeGreaterThanOrEqual(1);
    const text = JSON.stringify(audit);
    expect(text).not.toContain(email);
    expect(text).not.toContain(person.userId);
    expect(text).not.toContain('Rowan');

    const mail = readOutbox(t.dataDir).filter((m) => m.to.includes(email) && /has been deleted/.test(m.subject));
    expect(mail).toHaveLength(1);
    expect(mail[0].raw).toContain('Any web subscription has been cancelled');

    // Gone: the old cookie is nobody, and the password opens nothing.
    expect((await exportOf(person.cookie)).statusCode).toBe(401);
    expect((await signIn(t, email, PASSWORD)).statusCode).toBe(401);
  });

  it('keeps the last admin, and lets an admin go once another admin exists', async () => {
    const admin = await createSignedInUser(t, `only-admin-${kind}@example.com`, PASSWORD);
    await assignRole({ db: t.database.db, userId: admin.userId, role: 'admin', assignedBy: null });
    const admins = await t.database.db.select({ userId: userRoles.userId }).from(userRoles).where(eq(userRoles.role, 'admin'));
    // Other tests of this file make no admins: this is the only one.
    expect(admins.map((a) => a.userId)).toEqual([admin.userId]);
    const refused = await remove(admin.cookie, { password: PASSWORD, confirmation: 'DELETE' });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error.message).toBe('You are the only admin. Give another account the admin role before deleting yours.');

    const second = await createSignedInUser(t, `second-admin-${kind}@example.com`);
    await assignRole({ db: t.database.db, userId: second.userId, role: 'admin', assignedBy: admin.userId });
    expect((await remove(admin.cookie, { password: PASSWORD, confirmation: 'DELETE' })).statusCode).toBe(200);
    // The role the deleted admin gave stays; who gave it does not.
    const [kept] = await t.database.db.select({ assignedBy: userRoles.assignedBy }).from(userRoles).where(eq(userRoles.userId, second.userId));
    expect(kept.assignedBy).toBeNull();
  });

  it('asks an Apple or Google account (no password) for a fresh sign-in instead', async () => {
    const ctx = await t.app.auth.$context;
    const social = await ctx.internalAdapter.createUser({ email: `social-${kind}@example.com`, name: 'Sol Gale', emailVerified: true }, { method: 'test' });
    await ctx.internalAdapter.linkAccount({ userId: social.id, providerId: 'google', accountId: `google-${kind}` });
    const { cookie, token } = await buildSession(t, social.id);
    expect((await t.app.inject({ method: 'GET', url: '/api/account/deletion', headers: { cookie } })).json()).toEqual({ hasPassword: false, subscription: 'none' });
    await t.database.db.update(session).set({ createdAt: new Date(Date.now() - 11 * 60_000) }).where(eq(session.token, token));
    const stale = await remove(cookie, { confirmation: 'DELETE' });
    expect(stale.statusCode).toBe(403);
    expect(stale.json().error.message).toBe('For your safety, please sign in again, then delete your account within 10 minutes.');
    await t.database.db.update(session).set({ createdAt: new Date() }).where(eq(session.token, token));
    expect((await remove(cookie, { confirmation: 'DELETE' })).statusCode).toBe(200);
  });
});

describe.each(testDatabaseKinds())('account deletion racing itself on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ kind });
  });
  afterAll(() => t.close());
  const remove = (cookie: string) => t.app.inject({ method: 'POST', url: '/api/account/delete', headers: { ...origin(t), cookie }, payload: { password: PASSWORD, confirmation: 'DELETE' } });

  it('deletes once when the same deletion arrives twice at the same moment: one audit row, one e-mail', async () => {
    const person = await createSignedInUser(t, `twice-${kind}@example.com`, PASSWORD);
    const second = await buildSession(t, person.userId);
    const answers = await Promise.all([remove(person.cookie), remove(second.cookie)]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 401]);
    expect(await t.database.db.select().from(adminAuditLog).where(eq(adminAuditLog.action, 'account.delete'))).toHaveLength(1);
    expect(readOutbox(t.dataDir).filter((m) => m.to.includes(`twice-${kind}@example.com`))).toHaveLength(1);
  });

  it('never lets the last two admins delete themselves together: one goes, the other is told it is the only admin', async () => {
    const a = await createSignedInUser(t, `admin-a-${kind}@example.com`, PASSWORD);
    const b = await createSignedInUser(t, `admin-b-${kind}@example.com`, PASSWORD);
    await assignRole({ db: t.database.db, userId: a.userId, role: 'admin', assignedBy: null });
    await assignRole({ db: t.database.db, userId: b.userId, role: 'admin', assignedBy: null });
    // Sent together; this does not force both past the first check (the row lock in the deletion's
    // transaction is what decides when they are), but whichever way they interleave, one admin stays.
    const answers = await Promise.all([remove(a.cookie), remove(b.cookie)]);
    expect(answers.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    expect(await t.database.db.select().from(userRoles).where(eq(userRoles.role, 'admin'))).toHaveLength(1);
  });
});

describe('account deletion in Stripe mode', () => {
  let fake: FakeStripe;
  let t: TestApp;
  beforeAll(async () => {
    fake = await startFakeStripe();
    t = await createTestApp({
      env: { STRIPE_SECRET_KEY: 'sk_test_harbour', STRIPE_WEBHOOK_SECRET: 'whsec_account', STRIPE_PRICE_MONTHLY: 'price_monthly', STRIPE_PRICE_YEARLY: 'price_yearly', STRIPE_API_BASE: fake.url },
    });
  });
  afterAll(async () => {
    await t.close();
    await fake.close();
  });

  it('cancels the Stripe subscription at once, before the account goes, and deletes nothing when Stripe cannot be reached', async () => {
    const person = await createSignedInUser(t, 'stripe-delete@example.com', PASSWORD);
    const id = 'sub_delete1';
    fake.subscriptions.set(id, fakeSubscription({ id, userId: person.userId, status: 'active' }));
    await t.database.db.insert(subscribers).values({ userId: person.userId, status: 'active', plan: 'monthly', provider: 'stripe', providerCustomerId: `cus_${id}`, providerSubscriptionId: id });

    // Stripe is down: nothing is deleted, and the person is told to try again.
    fake.failCancel = true;
    const failed = await t.app.inject({ method: 'POST', url: '/api/account/delete', headers: { ...origin(t), cookie: person.cookie }, payload: { password: PASSWORD, confirmation: 'DELETE' } });
    expect(failed.statusCode).toBe(503);
    expect(failed.json().error.message).toBe('Your subscription could not be cancelled just now, so nothing was deleted. Please try again in a few minutes.');
    expect((await t.database.db.select().from(user).where(eq(user.id, person.userId))).length).toBe(1);

    fake.failCancel = false;
    const res = await t.app.inject({ method: 'POST', url: '/api/account/delete', headers: { ...origin(t), cookie: person.cookie }, payload: { password: PASSWORD, confirmation: 'DELETE' } });
    expect(res.statusCode).toBe(200);
    expect(fake.cancelRequests).toEqual([id]);
    expect(fake.subscriptions.get(id)?.status).toBe('canceled');
    expect((await t.database.db.select().from(user).where(eq(user.id, person.userId))).length).toBe(0);
  });

  it('goes on when Stripe no longer knows the subscription (nothing left to charge)', async () => {
    const person = await createSignedInUser(t, 'stripe-gone@example.com', PASSWORD);
    await t.database.db.insert(subscribers).values({ userId: person.userId, status: 'active', plan: 'monthly', provider: 'stripe', providerCustomerId: 'cus_gone', providerSubscriptionId: 'sub_unknown' });
    const res = await t.app.inject({ method: 'POST', url: '/api/account/delete', headers: { ...origin(t), cookie: person.cookie }, payload: { password: PASSWORD, confirmation: 'DELETE' } });
    expect(res.statusCode).toBe(200);
    expect((await t.database.db.select().from(user).where(eq(user.id, person.userId))).length).toBe(0);
  });
});
