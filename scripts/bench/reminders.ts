/**
 * `npm run bench:reminders`: what one run of the reminder scheduler costs (issue 20, item 4;
 * decision 0040), on PostgreSQL, as the number of people with reminders on grows. Each person has
 * one browser, a time spread over the day and a time zone of five; the pushes go to a local push
 * service (real encryption and VAPID signing, no network). Per size:
 *   - the busy run: the first run at a moment, which claims and sends every reminder due (about a
 *     twelfth of people: anyone whose time fell in the last two hours);
 *   - the next minute's run, which finds those claimed and sends only to the few whose time has just
 *     come: what every process pays every minute.
 * The baseline in the same run is the smallest size: the figures should grow with the people due,
 * not faster. BENCH_REMINDER_SIZES (1000,5000,20000), SCALE_ADMIN_URL (postgres://postgres@127.0.0.1:5432/test).
 */
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { openPostgres } from '#server/db/client.ts';
import { user } from '#server/db/schema/auth.ts';
import { pushSubscriptions, reminderSettings } from '#server/db/schema/reminders.ts';
import { pushSenderFor, sendDueReminders } from '#server/features/reminders/reminder-scheduler.ts';
import { newBrowserSubscription, startFakePushService } from '#tests/fakes/push-service.ts';
import { createPostgresDatabase } from '#tests/setup/postgres-database.ts';

const SIZES = (process.env.BENCH_REMINDER_SIZES ?? '1000,5000,20000').split(',').map(Number);
const ADMIN_URL = process.env.SCALE_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const ZONES = ['Europe/London', 'Europe/Berlin', 'America/New_York', 'Asia/Kolkata', 'Australia/Sydney'];
const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined };

const service = await startFakePushService();
const sender = pushSenderFor('bench-auth-secret', { webPush: { publicKey: undefined, privateKey: undefined, subject: 'mailto:bench@example.com', extraOrigins: [service.origin], everySeconds: 60 }, publicUrl: 'http://127.0.0.1', mailFrom: 'bench@example.com' });
// One browser's keys for everybody: encryption costs the same, and making 20 000 key pairs is not what is measured.
const browser = newBrowserSubscription(service, 'template');

console.log('people with reminders on'.padEnd(26), 'busy run ms'.padStart(12), 'sent'.padStart(6), 'next minute ms'.padStart(15), 'sent'.padStart(6));
for (const size of SIZES) {
  const database = await createPostgresDatabase(ADMIN_URL, 'hm_bench_reminders');
  const handle = openPostgres(database.url);
  try {
    await handle.migrate();
    const db = handle.db;
    for (let start = 0; start < size; start += 1000) {
      const ids = Array.from({ length: Math.min(1000, size - start) }, () => randomUUID());
      await db.insert(user).values(ids.map((id, i) => ({ id, name: `Person ${start + i}`, email: `${id}@example.com`, emailVerified: true })));
      await db.insert(reminderSettings).values(
        ids.map((id, i) => {
          const minute = ((start + i) * 7919) % 1440; // spread over the day
          return { userId: id, enabled: true, time: `${String(Math.floor(minute / 60)).padStart(2, '0')}:${String(minute % 60).padStart(2, '0')}`, days: [0, 1, 2, 3, 4, 5, 6], timeZone: ZONES[(start + i) % ZONES.length] };
        }),
      );
      await db.insert(pushSubscriptions).values(ids.map((id) => ({ userId: id, endpoint: `${service.origin}/push/${id}`, p256dh: browser.keys.p256dh, auth: browser.keys.auth })));
    }
    await db.execute(sql`analyze`);
    const now = new Date('2026-07-01T12:00:00Z');
    let started = performance.now();
    const busy = await sendDueReminders({ db, sender, log: quiet, now });
    const busyMs = performance.now() - started;
    started = performance.now();
    const next = await sendDueReminders({ db, sender, log: quiet, now: new Date(now.getTime() + 60_000) });
    const quietMs = performance.now() - started;
    console.log(String(size).padEnd(26), busyMs.toFixed(0).padStart(12), String(busy.sent).padStart(6), quietMs.toFixed(0).padStart(15), String(next.sent).padStart(6));
  } finally {
    await handle.close();
    await database.drop();
  }
}
await service.close();
