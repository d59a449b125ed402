/**
 * Reminders without push (issue 38, item 6) over real HTTP, on PGlite and PostgreSQL: choosing
 * e-mail, the scheduler's mail on a fake clock (read from the outbox folder), its one-tap turn-off
 * (the page's POST and the mail client's RFC 8058 one-click), and the calendar file. The attacker's
 * requests too: no cookie, someone else's token, a tampered one, odd bodies.
 */
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import ICAL from 'ical.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REMINDER, REMINDER_MESSAGES, reminderMessage } from '#shared/reminders.ts';
import { user as userTable } from '#server/db/schema/auth.ts';
import { reminderSettings } from '#server/db/schema/reminders.ts';
import { createMailer } from '#server/mail.ts';
import { loadOrCreateSecret } from '#server/secrets.ts';
import { mailOffTokenFor, reminderMailerFor, type ReminderMailer } from '#server/features/reminders/reminder-mail.ts';
import { pushSenderFor, sendDueMailReminders, sendDueReminders, type PushSender } from '#server/features/reminders/reminder-scheduler.ts';
import { buildSession, buildUser } from '#tests/factories.ts';
import { newBrowserSubscription, startFakePushService, type FakePushService } from '#tests/fakes/push-service.ts';
import { readOutbox, type OutboxMail } from '#tests/setup/outbox.ts';
import { listen, rawRequest } from '#tests/setup/raw-http.ts';
import { createTestApp, type TestApp } from '#tests/setup/test-app.ts';
import { testDatabaseKinds } from '#tests/setup/test-db.ts';

const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined };
// 2026-07-01 is a Wednesday; London is on BST (UTC+1): 07:30 there is 06:30 UTC.
const at = (utc: string, date = '2026-07-01') => new Date(`${date}T${utc}Z`);
const every = [0, 1, 2, 3, 4, 5, 6];

describe.each(testDatabaseKinds())('e-mail reminders and the calendar file on %s', (kind) => {
  let t: TestApp;
  let port: number;
  let mail: ReminderMailer;
  let push: FakePushService;
  let sender: PushSender;
  let site: string;

  beforeAll(async () => {
    push = await startFakePushService();
    t = await createTestApp({ kind, env: { WEB_PUSH_EXTRA_ORIGINS: push.origin } });
    port = await listen(t);
    site = new URL(t.config.publicUrl).origin;
    const secret = loadOrCreateSecret(t.dataDir, 'auth-secret');
    // The app's own mail path: the outbox folder, with the app's turn-off key.
    mail = reminderMailerFor(secret, createMailer({ from: t.config.mailFrom, outboxDir: join(t.dataDir, 'outbox'), log: quiet }), t.config.publicUrl);
    sender = pushSenderFor(secret, t.config);
  });
  afterAll(async () => {
    await t.close();
    await push.close();
  });

  /** A person; `verified: false` makes one whose address is not confirmed. */
  async function person(email: string, { verified = true } = {}) {
    const made = await buildUser(t, { email, name: 'Robin Reed' });
    if (!verified) await t.database.db.update(userTable).set({ emailVerified: false }).where(eq(userTable.id, made.id));
    const { cookie } = await buildSession(t, made.id);
    return { id: made.id, email, cookie };
  }
  /** JSON over HTTP with the site's Origin, and the cookie when given. */
  const call = (method: string, path: string, { cookie, body }: { cookie?: string; body?: unknown } = {}) => rawRequest(port, { method, path, body, headers: { origin: site, ...(cookie ? { cookie } : {}) } });
  const choose = (cookie: string, settings: object = {}) => call('PUT', '/api/reminders', { cookie, body: { enabled: true, time: '07:30', days: every, timeZone: 'Europe/London', channel: 'email', ...settings } });
  const mailsTo = (email: string): OutboxMail[] => readOutbox(t.dataDir).filter((m) => m.to.includes(email));
  const settingsOf = async (id: string) => (await t.database.db.select().from(reminderSettings).where(eq(reminderSettings.userId, id))).at(0);
  const runMail = (now: Date) => sendDueMailReminders({ db: t.database.db, mail, log: quiet, now });
  const offLink = (m: OutboxMail) => m.links.find((l) => l.includes('/reminders/off?token='));
  /** The header section with folded lines joined (RFC 5322 §2.2.3), for reading a header whole. */
  const headersOf = (m: OutboxMail) => m.raw.slice(0, m.raw.search(/\r?\n\r?\n/)).replace(/\r?\n[ \t]+/g, ' ');
  const tokenOf = (link: string) => decodeURIComponent(new URL(link).searchParams.get('token') ?? '');

  it('lets a person choose e-mail, shows the address it goes to, and refuses what it must', async () => {
    const robin = await person('email-choose@example.com');
    const first = await call('GET', '/api/reminders?tz=Europe/London', { cookie: robin.cookie });
    expect(first.json()).toMatchObject({ settings: { enabled: false, channel: 'push' }, mail: { address: robin.email, verified: true } });

    const saved = await choose(robin.cookie);
    expect(saved.status, saved.text).toBe(200);
    expect(saved.json()).toMatchObject({ settings: { enabled: true, channel: 'email', time: '07:30' } });
    // An older app saving without a channel keeps the one chosen.
    const older = await call('PUT', '/api/reminders', { cookie: robin.cookie, body: { enabled: true, time: '07:45', days: every, timeZone: 'Europe/London' } });
    expect(older.json()).toMatchObject({ settings: { channel: 'email', time: '07:45' } });

    const bad = await choose(robin.cookie, { channel: 'sms' });
    expect(bad.status).toBe(400);
    expect(bad.json().error.message).toBe(REMINDER_MESSAGES.badChannel);
    // Nobody names the address: a field for one is refused, and no cookie is no reminder.
    const elsewhere = await choose(robin.cookie, { email: 'victim@example.com' });
    expect(elsewhere.status).toBe(400);
    expect((await call('PUT', '/api/reminders', { body: { enabled: true, time: '07:30', days: every, timeZone: 'UTC', channel: 'email' } })).status).toBe(401);

    // An address not yet confirmed gets nothing, and is told why.
    const unconfirmed = await person('email-unconfirmed@example.com', { verified: false });
    const refused = await choose(unconfirmed.cookie);
    expect(refused.status).toBe(403);
    expect(refused.json().error.message).toBe(REMINDER_MESSAGES.emailUnverified);
    expect(await settingsOf(unconfirmed.id)).toBeUndefined();
    expect((await call('GET', '/api/reminders', { cookie: unconfirmed.cookie })).json()).toMatchObject({ mail: { verified: false } });
  });

  it('mails one reminder a day at the chosen local time, with the push reminder’s words and a way to turn it off', async () => {
    const robin = await person('email-daily@example.com');
    await choose(robin.cookie);
    const elsewhere = await person('email-tokyo@example.com');
    // 07:30 in Tokyo (UTC+9) is 22:30 UTC the day before.
    await choose(elsewhere.cookie, { timeZone: 'Asia/Tokyo' });

    await runMail(at('06:29:59'));
    expect(mailsTo(robin.email)).toHaveLength(0);
    await runMail(at('06:30:00'));
    await runMail(at('06:31:00'));
    await runMail(at('08:00:00'));
    const [sent, ...more] = mailsTo(robin.email);
    expect(more).toHaveLength(0);
    expect(sent.subject).toBe(REMINDER.title);
    expect(sent.raw).toContain(reminderMessage('2026-07-01'));
    expect(sent.raw).toContain(REMINDER_MESSAGES.mailOffLabel);
    expect(headersOf(sent)).toMatch(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click\r?$/m);
    expect(headersOf(sent)).toMatch(/^List-Unsubscribe: <http[^>]+\/api\/reminders\/email\/one-click\?token=[^>]+>\r?$/m);
    expect(offLink(sent)).toBeDefined();
    // The next day, another; Tokyo's came at its own 07:30.
    await runMail(at('06:30:00', '2026-07-02'));
    expect(mailsTo(robin.email)).toHaveLength(2);
    expect(mailsTo(robin.email)[1].raw).toContain(reminderMessage('2026-07-02'));
    expect(mailsTo(elsewhere.email)).toHaveLength(0);
    await runMail(at('22:30:00', '2026-07-02'));
    expect(mailsTo(elsewhere.email)).toHaveLength(1);
    expect(mailsTo(elsewhere.email)[0].raw).toContain(reminderMessage('2026-07-03'));
  });

  it('never sends two reminders for one day when the person switches between notification and e-mail', async () => {
    const sam = await person('email-switch@example.com');
    await choose(sam.cookie, { channel: 'push' });
    const device = newBrowserSubscription(push);
    expect((await call('POST', '/api/reminders/devices', { cookie: sam.cookie, body: { endpoint: device.endpoint, expirationTime: null, keys: device.keys } })).status).toBe(201);
    const pushes = () => push.received.filter((m) => device.endpoint.endsWith(m.path)).length;

    await sendDueReminders({ db: t.database.db, sender, log: quiet, now: at('06:30:00', '2026-07-10') });
    expect(pushes()).toBe(1);
    await choose(sam.cookie, { channel: 'email' });
    await runMail(at('07:00:00', '2026-07-10'));
    expect(mailsTo(sam.email)).toHaveLength(0);
    // Mailed the next day, then back to notifications the same morning: no push that day.
    await runMail(at('06:30:00', '2026-07-11'));
    expect(mailsTo(sam.email)).toHaveLength(1);
    await choose(sam.cookie, { channel: 'push' });
    await sendDueReminders({ db: t.database.db, sender, log: quiet, now: at('07:00:00', '2026-07-11') });
    expect(pushes()).toBe(1);
    // E-mail chosen: the devices stay quiet.
    await choose(sam.cookie, { channel: 'email' });
    await sendDueReminders({ db: t.database.db, sender, log: quiet, now: at('06:30:00', '2026-07-12') });
    expect(pushes()).toBe(1);
  });

  it('mails only a verified address: an account whose address is no longer confirmed gets nothing', async () => {
    const jo = await person('email-unverified-later@example.com');
    await choose(jo.cookie);
    await t.database.db.update(userTable).set({ emailVerified: false }).where(eq(userTable.id, jo.id));
    await runMail(at('06:30:00', '2026-07-20'));
    expect(mailsTo(jo.email)).toHaveLength(0);
  });

  it('turns off only that person’s e-mail reminders, from the page’s button or the mail client, and never on a GET', async () => {
    const robin = await person('email-off@example.com');
    const other = await person('email-off-other@example.com');
    await choose(robin.cookie);
    await choose(other.cookie);
    await runMail(at('06:30:00', '2026-08-03'));
    const link = offLink(mailsTo(robin.email)[0])!;
    const token = tokenOf(link);

    // A link prefetcher (or a person who only looked) GETs the page, or the one-click address: nothing changes.
    // (This app has no web build; the page itself is the browser journey's, tests/e2e/reminders.e2e.ts.)
    for (const path of [new URL(link).pathname + new URL(link).search, `/api/reminders/email/one-click?token=${encodeURIComponent(token)}`]) {
      const looked = await rawRequest(port, { method: 'GET', path });
      expect(looked.status, path).toBeLessThan(500);
      expect(looked.status, path).not.toBe(200);
    }
    expect((await settingsOf(robin.id))?.enabled).toBe(true);

    // Forged and tampered tokens, someone else's id under Robin's signature, odd bodies: refused, nothing changes.
    const [id, version, mac] = token.split('.');
    for (const forged of [`${other.id}.${version}.${mac}`, `${id}.${version}.${mac.slice(0, -1)}${mac.endsWith('A') ? 'B' : 'A'}`, `${id}.${Number(version) + 1}.${mac}`, mailOffTokenFor('guessed-secret', other.id, 1), `${id}.${version}`, 'x'.repeat(201), '../../etc']) {
      const answer = await call('POST', '/api/reminders/email/off', { body: { token: forged } });
      expect(answer.status, forged).toBe(400);
      expect(answer.json().error.message).toBe(REMINDER_MESSAGES.badOffLink);
    }
    for (const body of [{}, { token: 42 }, { token, extra: true }, [token]]) expect((await call('POST', '/api/reminders/email/off', { body })).status, JSON.stringify(body)).toBe(400);
    expect((await settingsOf(robin.id))?.enabled).toBe(true);
    expect((await settingsOf(other.id))?.enabled).toBe(true);

    // The page's button: no session needed; Robin's off, the other person's untouched.
    const off = await call('POST', '/api/reminders/email/off', { body: { token } });
    expect(off.status, off.text).toBe(200);
    expect(off.json<{ result: string }>()).toEqual({ result: 'off' });
    expect(await settingsOf(robin.id)).toMatchObject({ enabled: false, channel: 'email' });
    expect((await settingsOf(other.id))?.enabled).toBe(true);
    await runMail(at('06:30:00', '2026-08-04'));
    expect(mailsTo(robin.email)).toHaveLength(1);

    // On again: the old mail's link is outdated and changes nothing; the new mail's works.
    await choose(robin.cookie);
    expect((await call('POST', '/api/reminders/email/off', { body: { token } })).json<{ result: string }>()).toEqual({ result: 'outdated' });
    expect((await settingsOf(robin.id))?.enabled).toBe(true);

    // The mail client's own button (RFC 8058): a form POST to the List-Unsubscribe address, no cookie.
    await runMail(at('06:30:00', '2026-08-05'));
    const latest = mailsTo(robin.email).at(-1)!;
    const oneClick = new URL(/^List-Unsubscribe: <([^>]+)>\r?$/m.exec(headersOf(latest))![1]);
    const form = (body: string, path = oneClick.pathname + oneClick.search) => formPost(path, body);
    expect((await form('List-Unsubscribe=Maybe')).status).toBe(400);
    expect((await form('List-Unsubscribe=One-Click', `${oneClick.pathname}?token=${encodeURIComponent(token)}`)).status).toBe(204);
    expect((await settingsOf(robin.id))?.enabled).toBe(true);
    expect((await formPost(oneClick.pathname + oneClick.search, 'x'.repeat(2048))).status).toBe(413);
    // Multipart, as RFC 8058 also allows: the field's value is all that is read.
    const multipart = (value: string) => `--b\r\nContent-Disposition: form-data; name="List-Unsubscribe"\r\n\r\n${value}\r\n--b--\r\n`;
    expect((await formPost(oneClick.pathname + oneClick.search, multipart('Nope'), 'multipart/form-data; boundary=b')).status).toBe(400);
    expect((await settingsOf(robin.id))?.enabled).toBe(true);
    expect((await formPost(oneClick.pathname + oneClick.search, multipart('One-Click'), 'multipart/form-data; boundary=b')).status).toBe(204);
    expect((await settingsOf(robin.id))?.enabled).toBe(false);
    // Again, as a mail client may retry: still off, still 204.
    expect((await form('List-Unsubscribe=One-Click')).status).toBe(204);
    expect((await settingsOf(robin.id))?.enabled).toBe(false);
    expect((await settingsOf(other.id))?.enabled).toBe(true);
    // Posted from a mail client in a browser that happens to hold a session of ours, from another origin: the token decides, not the cookie.
    await choose(robin.cookie);
    const withSession = await new Promise<number>((resolve, reject) => {
      const body = 'List-Unsubscribe=One-Click';
      const req = httpRequest({ host: '127.0.0.1', port, method: 'POST', path: `${oneClick.pathname}?token=${encodeURIComponent(tokenOf(offLink(mailsTo(robin.email).at(-1)!)!))}`, headers: { 'content-type': 'application/x-www-form-urlencoded', 'content-length': String(body.length), origin: 'https://mail.example.net', cookie: other.cookie } }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', reject);
      req.end(body);
    });
    // The token is the newest mail's, from before this re-enabling: outdated, so nothing changes, but it is answered.
    expect(withSession).toBe(204);
    expect((await settingsOf(robin.id))?.enabled).toBe(true);
    expect((await settingsOf(other.id))?.enabled).toBe(true);
    // Form bodies stay refused everywhere else.
    expect((await formPost('/api/reminders/email/off', `token=${encodeURIComponent(token)}`)).status).toBe(415);
  });

  /** A form POST with no cookie, as a mail provider's server sends it. */
  const formPost = (path: string, body: string, type = 'application/x-www-form-urlencoded; charset=utf-8') =>
    new Promise<{ status: number; text: string }>((resolve, reject) => {
      const req = httpRequest({ host: '127.0.0.1', port, method: 'POST', path, headers: { 'content-type': type, 'content-length': String(Buffer.byteLength(body)) } }, (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
      });
      req.on('error', reject);
      req.end(body);
    });

  /**
   * The file as a calendar application reads it (ical.js, the iCalendar parser of Thunderbird's
   * calendar; decision 0062): each of its first `count` occurrences as the local time and weekday
   * of `zone` by the platform's own time-zone data (Intl), so the file's VTIMEZONE is checked too.
   */
  const occurrences = (text: string, zone: string, count: number) => {
    const calendar = new ICAL.Component(ICAL.parse(text));
    for (const timezone of calendar.getAllSubcomponents('vtimezone')) ICAL.TimezoneService.register(timezone);
    const vevent = calendar.getFirstSubcomponent('vevent');
    if (!vevent) throw new Error('no VEVENT');
    const event = new ICAL.Event(vevent);
    expect(event.startDate.zone.tzid).toBe(zone);
    const local = new Intl.DateTimeFormat('en-GB', { timeZone: zone, weekday: 'short', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
    const iterator = event.iterator();
    const seen: string[] = [];
    // The rules here never end, so there are always `count` of them.
    for (let i = 0; i < count; i++) seen.push(local.format(iterator.next().toJSDate()));
    return { summary: event.summary, seen };
  };

  it('downloads the calendar file for the signed-in person at the time and days chosen, in their zone', async () => {
    const robin = await person('calendar@example.com');
    const file = await call('GET', '/api/reminders/calendar.ics?time=07:30&days=0,1,2,3,4,5,6&tz=Europe%2FLondon', { cookie: robin.cookie });
    expect(file.status, file.text).toBe(200);
    expect(file.headers['content-type']).toBe('text/calendar; charset=utf-8');
    expect(file.headers['content-disposition']).toBe('attachment; filename="harbour-mind-reminder.ics"');
    expect(file.text).toMatch(/^BEGIN:VCALENDAR\r\n/);
    expect(file.text).toContain('\r\nRRULE:FREQ=DAILY\r\n');
    expect(file.text).toMatch(/\r\nDTSTART;TZID=Europe\/London:\d{8}T073000\r\n/);
    expect(file.text).toContain('\r\nBEGIN:VTIMEZONE\r\nTZID:Europe/London\r\n');
    // Read by a real iCalendar parser: every day for a year (through both clock changes) at 07:30 in London.
    const london = occurrences(file.text, 'Europe/London', 366);
    expect(london.summary).toBeTruthy();
    expect(london.seen).toHaveLength(366);
    expect(new Set(london.seen.map((s) => s.slice(-5)))).toEqual(new Set(['07:30']));
    const uid = /\r\nUID:([^\r]+)\r\n/.exec(file.text)?.[1];
    // Stable for the person (importing again updates the one event), and not their account id.
    const again = await call('GET', '/api/reminders/calendar.ics?time=21:00&days=0,2,4&tz=Asia%2FTokyo', { cookie: robin.cookie });
    expect(again.text).toContain(`\r\nUID:${uid}\r\n`);
    expect(again.text).toContain('\r\nRRULE:FREQ=WEEKLY;BYDAY=MO,WE,FR\r\n');
    expect(new Set(occurrences(again.text, 'Asia/Tokyo', 6).seen.map((s) => s.replace(/^(\w+),? /, '$1 ')))).toEqual(new Set(['Mon 21:00', 'Wed 21:00', 'Fri 21:00']));
    expect(uid).not.toContain(robin.id);
    const someoneElse = await person('calendar-other@example.com');
    expect((await call('GET', '/api/reminders/calendar.ics?time=07:30&days=0&tz=UTC', { cookie: someoneElse.cookie })).text).not.toContain(`UID:${uid}`);

    for (const [query, message] of [
      ['time=7:30&days=0&tz=UTC', REMINDER_MESSAGES.badTime],
      ['time=07:30&days=&tz=UTC', REMINDER_MESSAGES.noDays],
      ['time=07:30&days=0,0&tz=UTC', REMINDER_MESSAGES.noDays],
      ['time=07:30&days=7&tz=UTC', REMINDER_MESSAGES.noDays],
      ['time=07:30&days=0&tz=Atlantis%2FDeep', REMINDER_MESSAGES.badTimezone],
      ['time=07:30%0D%0AX-EVIL:1&days=0&tz=UTC', REMINDER_MESSAGES.badTime],
    ] as const) {
      const answer = await call('GET', `/api/reminders/calendar.ics?${query}`, { cookie: robin.cookie });
      expect(answer.status, query).toBe(400);
      expect(answer.json().error.message, query).toBe(message);
    }
    expect((await call('GET', '/api/reminders/calendar.ics?time=07:30&days=0&tz=UTC')).status).toBe(401);
  });
});
