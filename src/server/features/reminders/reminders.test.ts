/**
 * Daily reminders (issue 20, item 4) through the API and the scheduler, on PGlite and PostgreSQL.
 * The scheduler runs on a fake clock (`now`); pushes go to a local push service that checks VAPID
 * like a real one, and the test decrypts each message with the "browser's" own keys.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, onTestFinished, vi } from 'vitest';
import { AFFIRMATIONS } from '#shared/affirmations.ts';
import { REMINDER, REMINDER_MESSAGES, reminderMessage } from '#shared/reminders.ts';
import { programmeReminder } from '#shared/programmes.ts';
import { meditationSessions } from '#server/db/schema/practice.ts';
import { programmeDays, programmeEnrolments, programmes } from '#server/db/schema/programmes.ts';
import { pushSubscriptions, reminderDeliveries, reminderSettings } from '#server/db/schema/reminders.ts';
import { buildMeditation } from '#tests/factories.ts';
import { forgetOldDeliveries, pushSenderFor, sendDueReminders, type PushSender } from '#server/features/reminders/reminder-scheduler.ts';
import { loadOrCreateSecret } from '#server/secrets.ts';
import { newBrowserSubscription, startFakePushService, type BrowserSubscription, type FakePushService } from '#tests/fakes/push-service.ts';
import { createSignedInUser, origin } from '#tests/setup/auth-helpers.ts';
import { createTestApp, type TestApp } from '#tests/setup/test-app.ts';
import { testDatabaseKinds } from '#tests/setup/test-db.ts';

const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined };
// 2026-07-01 is a Wednesday; London is on BST (UTC+1): 07:30 there is 06:30 UTC.
const at = (utc: string) => new Date(`2026-07-01T${utc}Z`);
const every = [0, 1, 2, 3, 4, 5, 6];

describe.each(testDatabaseKinds())('reminders on %s', (kind) => {
  let t: TestApp;
  let service: FakePushService;
  let sender: PushSender;

  beforeAll(async () => {
    service = await startFakePushService();
    t = await createTestApp({ kind, env: { WEB_PUSH_EXTRA_ORIGINS: service.origin } });
    sender = pushSenderFor(loadOrCreateSecret(t.dataDir, 'auth-secret'), t.config);
  });
  afterAll(async () => {
    await t.close();
    await service.close();
  });

  const api = (cookie: string, method: 'GET' | 'PUT' | 'POST' | 'DELETE', url: string, payload?: object) =>
    t.app.inject({ method, url, headers: { ...origin(t), cookie }, ...(payload ? { payload } : {}) });
  const turnOn = (cookie: string, settings: object = {}) => api(cookie, 'PUT', '/api/reminders', { enabled: true, time: '07:30', days: every, timeZone: 'Europe/London', ...settings });
  const subscribe = async (cookie: string, name?: string): Promise<BrowserSubscription> => {
    const browser = newBrowserSubscription(service, name);
    const response = await api(cookie, 'POST', '/api/reminders/devices', { endpoint: browser.endpoint, expirationTime: null, keys: browser.keys });
    expect(response.statusCode, response.body).toBe(201);
    return browser;
  };
  const run = (now: Date) => sendDueReminders({ db: t.database.db, sender, log: quiet, now });
  const messagesTo = (browser: BrowserSubscription) => service.received.filter((m) => browser.endpoint.endsWith(m.path));

  it('is off until the person turns it on, and keeps what they chose', async () => {
    const { cookie } = await createSignedInUser(t, 'reminders-settings@example.com');
    const first = await api(cookie, 'GET', '/api/reminders?tz=Europe/Paris');
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({ settings: { enabled: false, time: REMINDER.defaultTime, days: every, timeZone: 'Europe/Paris', channel: 'push' }, pushKey: sender.vapid.publicKey, devices: 0, mail: { address: 'reminders-settings@example.com', verified: true } });

    const saved = await turnOn(cookie, { days: [4, 0, 2], time: '21:15' });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toMatchObject({ settings: { enabled: true, time: '21:15', days: [0, 2, 4], timeZone: 'Europe/London' } });
    expect((await api(cookie, 'GET', '/api/reminders')).json()).toMatchObject({ settings: { enabled: true, time: '21:15', days: [0, 2, 4] } });
  });

  it('refuses bad settings with their message and changes nothing; visitors are refused', async () => {
    const { cookie } = await createSignedInUser(t, 'reminders-bad@example.com');
    for (const [change, message] of [
      [{ time: '7:30' }, REMINDER_MESSAGES.badTime],
      [{ time: '25:00' }, REMINDER_MESSAGES.badTime],
      [{ days: [] }, REMINDER_MESSAGES.noDays],
      [{ days: [0, 0] }, REMINDER_MESSAGES.noDays],
      [{ timeZone: 'Atlantis/Deep' }, REMINDER_MESSAGES.badTimezone],
    ] as const) {
      const response = await turnOn(cookie, change);
      expect(response.statusCode, JSON.stringify(change)).toBe(400);
      expect(response.json<{ error: { message: string } }>().error.message).toBe(message);
    }
    expect((await api(cookie, 'GET', '/api/reminders')).json()).toMatchObject({ settings: { enabled: false } });
    const visitor = await t.app.inject({ method: 'PUT', url: '/api/reminders', headers: origin(t), payload: { enabled: true, time: '07:30', days: every, timeZone: 'UTC' } });
    expect(visitor.statusCode).toBe(401);
    expect((await t.app.inject({ method: 'GET', url: '/api/reminders' })).statusCode).toBe(401);
  });

  it('accepts a device only at a browser push service or one the operator named: never an address of the sender’s choosing', async () => {
    const { cookie } = await createSignedInUser(t, 'reminders-ssrf@example.com');
    const keys = newBrowserSubscription(service).keys;
    for (const endpoint of ['http://169.254.169.254/latest/meta-data', 'https://127.0.0.1:5432/', 'https://fcm.googleapis.com.evil.example/fcm/send/x', 'http://fcm.googleapis.com/fcm/send/x', 'https://user:pw@fcm.googleapis.com/fcm/send/x', 'not a url']) {
      const response = await api(cookie, 'POST', '/api/reminders/devices', { endpoint, keys });
      expect(response.statusCode, endpoint).toBe(400);
      expect(response.json<{ error: { message: string } }>().error.message).toBe(REMINDER_MESSAGES.unknownPushService);
    }
    // A NUL or other control character (PostgreSQL's text refuses NUL): refused with the message, nothing stored.
    for (const endpoint of ['https://fcm.googleapis.com/fcm/send/a\u0000b', `${service.origin}/push/a\u0000b`, 'https://fcm.googleapis.com/fcm/send/a\u0007b']) {
      const response = await api(cookie, 'POST', '/api/reminders/devices', { endpoint, keys });
      expect(response.statusCode, JSON.stringify(endpoint)).toBe(400);
      expect(response.json<{ error: { message: string } }>().error.message).toBe(REMINDER_MESSAGES.badSubscription);
    }
    const badKeys = await api(cookie, 'POST', '/api/reminders/devices', { endpoint: `${service.origin}/push/x`, keys: { p256dh: 'short', auth: keys.auth } });
    expect(badKeys.json<{ error: { message: string } }>().error.message).toBe(REMINDER_MESSAGES.badSubscription);
    expect(await t.database.db.select().from(pushSubscriptions).innerJoin(reminderSettings, eq(reminderSettings.userId, pushSubscriptions.userId)).where(eq(pushSubscriptions.endpoint, 'http://169.254.169.254/latest/meta-data'))).toEqual([]);
    const google = await api(cookie, 'POST', '/api/reminders/devices', { endpoint: 'https://fcm.googleapis.com/fcm/send/abc:def', keys });
    expect(google.statusCode).toBe(201);
  });

  it('sends each device one reminder on a chosen day from the chosen time, encrypted for it, with the day’s affirmation', async () => {
    const { cookie } = await createSignedInUser(t, 'reminders-send@example.com');
    await turnOn(cookie);
    const phone = await subscribe(cookie);
    const laptop = await subscribe(cookie);
    const off = await createSignedInUser(t, 'reminders-off@example.com');
    const neverOn = await subscribe(off.cookie);

    await run(at('06:29:59'));
    expect(messagesTo(phone)).toHaveLength(0);

    await run(at('06:30:00'));
    await run(at('06:31:00'));
    await run(at('08:00:00'));
    expect(messagesTo(phone)).toHaveLength(1);
    expect(messagesTo(laptop)).toHaveLength(1);
    expect(messagesTo(neverOn)).toHaveLength(0);

    const message = phone.decrypt(messagesTo(phone)[0]) as { title: string; body: string; url: string; offToken: string; day: string };
    expect(message).toMatchObject({ title: REMINDER.title, body: reminderMessage('2026-07-01'), url: '/', day: '2026-07-01' });
    expect(AFFIRMATIONS).toContain(message.body);
    expect(messagesTo(phone)[0].vapidPublicKey).toBe(sender.vapid.publicKey);
    expect(messagesTo(phone)[0].headers).toMatchObject({ topic: 'daily-reminder', urgency: 'normal' });

    // The next day brings the next one, with the next affirmation.
    await run(new Date('2026-07-02T06:45:00Z'));
    expect(messagesTo(phone)).toHaveLength(2);
    expect((phone.decrypt(messagesTo(phone)[1]) as { body: string }).body).toBe(reminderMessage('2026-07-02'));
  });

  it('never sends a second one the same day, even when the person moves the time later', async () => {
    const { cookie } = await createSignedInUser(t, 'reminders-once@example.com');
    await turnOn(cookie, { time: '05:00' });
    const device = await subscribe(cookie);
    await run(new Date('2026-07-03T04:10:00Z'));
    await turnOn(cookie, { time: '09:00' });
    await run(new Date('2026-07-03T08:05:00Z'));
    expect(messagesTo(device)).toHaveLength(1);
  });

  it('sends no stale reminder: a server down all morning does not send the 07:30 one at noon', async () => {
    const { cookie } = await createSignedInUser(t, 'reminders-late@example.com');
    await turnOn(cookie);
    const device = await subscribe(cookie);
    await run(new Date('2026-07-04T11:00:00Z'));
    expect(messagesTo(device)).toHaveLength(0);
  });

  it('retries a reminder the push service could not take, forgets a device that is gone, and sends on to the rest', async () => {
    const { cookie } = await createSignedInUser(t, 'reminders-failures@example.com');
    await turnOn(cookie);
    const busy = await subscribe(cookie, 'busy-device');
    const gone = await subscribe(cookie, 'gone-device');
    service.answerNext('/push/busy-device', 503);
    service.answerNext('/push/gone-device', 410);
    expect(await run(new Date('2026-07-05T06:30:00Z'))).toMatchObject({ retry: 1, gone: 1 });
    expect(messagesTo(busy)).toHaveLength(0);
    expect(await t.database.db.select().from(pushSubscriptions).where(eq(pushSubscriptions.endpoint, gone.endpoint))).toEqual([]);
    expect(await run(new Date('2026-07-05T06:31:00Z'))).toMatchObject({ sent: 1 });
    expect(messagesTo(busy)).toHaveLength(1);
  });

  it('refuses a key no reminder can be encrypted for, and one stored before that check holds back nobody else’s', async () => {
    const { cookie, userId } = await createSignedInUser(t, 'reminders-bad-key@example.com');
    await turnOn(cookie);
    // The right length for a P-256 key, but not a point on the curve.
    const offCurve = Buffer.concat([Buffer.from([4]), Buffer.alloc(64, 7)]).toString('base64url');
    const refused = await api(cookie, 'POST', '/api/reminders/devices', { endpoint: `${service.origin}/push/off-curve`, keys: { p256dh: offCurve, auth: newBrowserSubscription(service).keys.auth } });
    expect(refused.statusCode).toBe(400);
    expect(refused.json<{ error: { message: string } }>().error.message).toBe(REMINDER_MESSAGES.badSubscription);
    // Stored by an older version: it comes first in a batch of more than one, and the rest still go.
    await t.database.db.insert(pushSubscriptions).values({ userId, endpoint: `${service.origin}/push/off-curve`, p256dh: offCurve, auth: 'A'.repeat(22) });
    const others = [];
    for (let i = 0; i < 9; i += 1) others.push(await subscribe(cookie, `beside-off-curve-${i}`));
    expect(await run(new Date('2026-07-08T06:30:00Z'))).toMatchObject({ refused: 1 });
    for (const other of others) expect(messagesTo(other)).toHaveLength(1);
  });

  it('turns reminders off from the reminder itself, without a session; a forged token changes nothing', async () => {
    const { cookie } = await createSignedInUser(t, 'reminders-one-tap@example.com');
    await turnOn(cookie);
    const device = await subscribe(cookie);
    await run(new Date('2026-07-06T06:30:00Z'));
    const { offToken } = device.decrypt(messagesTo(device)[0]) as { offToken: string };

    const [id] = offToken.split('.');
    for (const token of [`${id}.forged`, 'nonsense', `${id}.${'A'.repeat(43)}`]) {
      const forged = await t.app.inject({ method: 'POST', url: '/api/reminders/off', headers: origin(t), payload: { token } });
      expect(forged.statusCode).toBe(400);
      expect(forged.json<{ error: { message: string } }>().error.message).toBe(REMINDER_MESSAGES.badOffLink);
    }
    expect((await api(cookie, 'GET', '/api/reminders')).json()).toMatchObject({ settings: { enabled: true } });

    const off = await t.app.inject({ method: 'POST', url: '/api/reminders/off', headers: origin(t), payload: { token: offToken } });
    expect(off.statusCode, off.body).toBe(200);
    expect((await api(cookie, 'GET', '/api/reminders')).json()).toMatchObject({ settings: { enabled: false, time: '07:30' } });
    await run(new Date('2026-07-07T06:30:00Z'));
    expect(messagesTo(device)).toHaveLength(1);
  });

  it('a device that signs in as somebody else becomes theirs; removing it stops its reminders', async () => {
    const first = await createSignedInUser(t, 'reminders-shared-a@example.com');
    const second = await createSignedInUser(t, 'reminders-shared-b@example.com');
    await turnOn(first.cookie);
    const device = newBrowserSubscription(service);
    const asFirst = (await api(first.cookie, 'POST', '/api/reminders/devices', { endpoint: device.endpoint, keys: device.keys })).json<{ id: string }>();
    const asSecond = (await api(second.cookie, 'POST', '/api/reminders/devices', { endpoint: device.endpoint, keys: device.keys })).json<{ id: string }>();
    expect((await api(first.cookie, 'GET', '/api/reminders')).json()).toMatchObject({ devices: 0 });
    // A new device for them: a token the first person's reminders carried cannot turn off the second's.
    expect(asSecond.id).not.toBe(asFirst.id);
    expect((await api(second.cookie, 'POST', '/api/reminders/devices', { endpoint: device.endpoint, keys: device.keys })).json()).toEqual(asSecond);
    // The second person has no reminder on: the shared computer shows none.
    await run(new Date('2026-07-08T06:30:00Z'));
    expect(messagesTo(device)).toHaveLength(0);

    await turnOn(second.cookie);
    expect((await api(second.cookie, 'DELETE', '/api/reminders/devices', { endpoint: device.endpoint })).statusCode).toBe(204);
    await run(new Date('2026-07-09T06:30:00Z'));
    expect(messagesTo(device)).toHaveLength(0);
    expect(await t.database.db.select().from(reminderDeliveries).innerJoin(pushSubscriptions, eq(pushSubscriptions.id, reminderDeliveries.subscriptionId)).where(eq(pushSubscriptions.endpoint, device.endpoint))).toEqual([]);
  });

  it('keeps at most 20 browsers per account: a new one pushes out the oldest', async () => {
    const { cookie } = await createSignedInUser(t, 'reminders-many@example.com');
    const browsers: BrowserSubscription[] = [];
    for (let i = 0; i < REMINDER.maxDevices + 2; i += 1) browsers.push(await subscribe(cookie));
    expect((await api(cookie, 'GET', '/api/reminders')).json()).toMatchObject({ devices: REMINDER.maxDevices });
    const kept = new Set((await t.database.db.select({ endpoint: pushSubscriptions.endpoint }).from(pushSubscriptions)).map((d) => d.endpoint));
    expect(browsers.map((b) => kept.has(b.endpoint))).toEqual([false, false, ...Array<boolean>(REMINDER.maxDevices).fill(true)]);
  });

  it('forgets deliveries older than a week, and only those', async () => {
    const { cookie } = await createSignedInUser(t, 'reminders-forget@example.com');
    const device = await subscribe(cookie);
    const [row] = await t.database.db.select({ id: pushSubscriptions.id }).from(pushSubscriptions).where(eq(pushSubscriptions.endpoint, device.endpoint));
    const now = new Date('2026-07-20T12:00:00Z');
    await t.database.db.insert(reminderDeliveries).values([
      { subscriptionId: row.id, day: '2026-07-11', claimedAt: new Date('2026-07-11T07:00:00Z') },
      { subscriptionId: row.id, day: '2026-07-19', claimedAt: new Date('2026-07-19T07:00:00Z') },
    ]);
    await forgetOldDeliveries(t.database.db, now);
    expect((await t.database.db.select({ day: reminderDeliveries.day }).from(reminderDeliveries).where(eq(reminderDeliveries.subscriptionId, row.id))).map((d) => d.day)).toEqual(['2026-07-19']);
  });

  it('two processes running the job at the same moment send each reminder once', async () => {
    const { cookie } = await createSignedInUser(t, 'reminders-race@example.com');
    await turnOn(cookie);
    const devices = await Promise.all(Array.from({ length: 5 }, () => subscribe(cookie)));
    const now = new Date('2026-07-10T06:30:00Z');
    await Promise.all([run(now), run(now), run(now)]);
    for (const device of devices) expect(messagesTo(device)).toHaveLength(1);
  });

  it('names the programme day that is ready and leads to the programme (issue 37, item 2), the next day once it has opened', async () => {
    const { cookie, userId } = await createSignedInUser(t, `reminders-programme-${kind}@example.com`);
    await turnOn(cookie);
    const phone = await subscribe(cookie);
    const [one, two] = [await buildMeditation(t.database.db, { free: true }), await buildMeditation(t.database.db)];
    const [made] = await t.database.db.insert(programmes).values({ slug: `reminded-${kind}`, title: 'Sleep Reset', description: 'Five evenings.', cover: 'sleeping', published: true }).returning();
    await t.database.db.insert(programmeDays).values([
      { programmeId: made.id, dayNumber: 1, meditationId: one.id },
      { programmeId: made.id, dayNumber: 2, meditationId: two.id },
    ]);
    await t.database.db.insert(programmeEnrolments).values({ userId, programmeId: made.id, startedAt: new Date('2026-07-20T20:00:00Z'), timeZone: 'Europe/London' });

    await run(new Date('2026-07-21T06:30:00Z'));
    expect(phone.decrypt(messagesTo(phone)[0])).toMatchObject({ body: programmeReminder('Sleep Reset', 1, 2), url: `/programmes/reminded-${kind}` });

    // Day 1 done this morning: day 2 opens tomorrow, and tomorrow's reminder names it.
    await t.database.db.insert(meditationSessions).values({ userId, meditationId: one.id, clientId: crypto.randomUUID(), completedAt: new Date('2026-07-21T07:00:00Z'), complete: true });
    await run(new Date('2026-07-22T06:30:00Z'));
    expect(phone.decrypt(messagesTo(phone)[1])).toMatchObject({ body: programmeReminder('Sleep Reset', 2, 2), url: `/programmes/reminded-${kind}` });
  });
});

describe('the reminder job in a running app', () => {
  // buildApp starts the job itself (schedulers on, as in production): the clock of its interval is the
  // test's, and a person whose reminder is due at the real time of day gets it without anyone calling it.
  it('runs every REMINDER_EVERY_SECONDS once the app is up', async () => {
    const service = await startFakePushService();
    onTestFinished(() => service.close());
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    onTestFinished(() => {
      vi.useRealTimers();
    });
    const t = await createTestApp({ schedulers: true, env: { WEB_PUSH_EXTRA_ORIGINS: service.origin, REMINDER_EVERY_SECONDS: '60' } });
    onTestFinished(() => t.close());

    // A zone where it is now around noon, and the reminder set a minute ago: due, and far from midnight.
    const now = new Date();
    const hoursAhead = 12 - now.getUTCHours();
    const timeZone = hoursAhead === 0 ? 'Etc/GMT' : `Etc/GMT${hoursAhead > 0 ? '-' : '+'}${Math.abs(hoursAhead)}`;
    const local = new Date(now.getTime() + hoursAhead * 3_600_000 - 60_000);
    const time = `${String(local.getUTCHours()).padStart(2, '0')}:${String(local.getUTCMinutes()).padStart(2, '0')}`;
    const { cookie } = await createSignedInUser(t, 'reminders-scheduled@example.com');
    const headers = { ...origin(t), cookie };
    expect((await t.app.inject({ method: 'PUT', url: '/api/reminders', headers, payload: { enabled: true, time, days: every, timeZone } })).statusCode).toBe(200);
    const browser = newBrowserSubscription(service);
    expect((await t.app.inject({ method: 'POST', url: '/api/reminders/devices', headers, payload: { endpoint: browser.endpoint, expirationTime: null, keys: browser.keys } })).statusCode).toBe(201);

    // Nothing has run it: the interval has not come round on the app's clock. Once it has, the job sends the reminder.
    expect(service.received).toHaveLength(0);
    vi.advanceTimersByTime(60_000);
    await expect.poll(() => service.received.length).toBe(1);
    expect(browser.decrypt(service.received[0])).toMatchObject({ title: REMINDER.title });
  });
});
