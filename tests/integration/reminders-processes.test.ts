/**
 * Reminders exactly once per device per day across two real server processes sharing one
 * PostgreSQL database (issue 20, item 4), each running its scheduler every second, and across a
 * restart of one of them. The pushes go to a local push service that checks VAPID; every message
 * must be signed with the one key pair both processes derive from the shared auth secret.
 */
import { randomUUID } from 'node:crypto';
import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { weekdayIndex } from '#shared/days.ts';
import { user } from '#server/db/schema/auth.ts';
import { pushSubscriptions, reminderSettings } from '#server/db/schema/reminders.ts';
import { vapidKeysFor } from '#server/features/reminders/vapid.ts';
import { newBrowserSubscription, startFakePushService, type BrowserSubscription } from '#tests/fakes/push-service.ts';
import { SHARED_AUTH_SECRET, startServer, type RunningServer } from '#tests/setup/server-process.ts';
import { createThrowawayPostgres } from '#tests/setup/test-db.ts';

const PEOPLE = 20;
const DEVICES_EACH = 2;

describe.skipIf(!inject('postgresUrl'))('reminders across two processes on PostgreSQL', () => {
  const cleanup: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const step of cleanup.reverse()) await step();
  });

  it('sends each device its reminder once, whichever process gets there first, and not again after a restart', { timeout: 240_000 }, async () => {
    const service = await startFakePushService();
    cleanup.push(() => service.close());
    const database = await createThrowawayPostgres('hm_reminders', { migrated: false });
    cleanup.push(() => database.drop());
    const env = { DATABASE_URL: database.url, WEB_PUSH_EXTRA_ORIGINS: service.origin, REMINDER_EVERY_SECONDS: '1' };
    const servers: RunningServer[] = [await startServer(env)];
    servers.push(await startServer(env));
    cleanup.push(async () => {
      for (const server of servers) await server.stop();
    });

    // People whose reminder is due now: at this minute in UTC, on today only (so a run that crosses
    // midnight does not make tomorrow's legitimately second one).
    const pool = new pg.Pool({ connectionString: database.url, max: 2 });
    cleanup.push(() => pool.end());
    const db = drizzle(pool);
    const now = new Date();
    const time = `${String(now.getUTCHours()).padStart(2, '0')}:${String(now.getUTCMinutes()).padStart(2, '0')}`;
    const today = now.toISOString().slice(0, 10);
    const devices: BrowserSubscription[] = [];
    for (let p = 0; p < PEOPLE; p += 1) {
      const id = randomUUID();
      await db.insert(user).values({ id, name: `Person ${p}`, email: `reminders-${p}@example.com`, emailVerified: true });
      await db.insert(reminderSettings).values({ userId: id, enabled: true, time, days: [weekdayIndex(today)], timeZone: 'UTC' });
      for (let d = 0; d < DEVICES_EACH; d += 1) {
        const device = newBrowserSubscription(service);
        await db.insert(pushSubscriptions).values({ userId: id, endpoint: device.endpoint, p256dh: device.keys.p256dh, auth: device.keys.auth });
        devices.push(device);
      }
    }

    const countsByDevice = () => devices.map((device) => service.received.filter((m) => device.endpoint.endsWith(m.path)).length);
    const started = Date.now();
    await expect.poll(() => service.received.length, { timeout: 30_000, interval: 100 }).toBe(devices.length);
    const allSentMs = Date.now() - started;
    // Several more runs of both schedulers: nothing more may go out.
    await new Promise((resolve) => setTimeout(resolve, 3_500));
    expect(countsByDevice()).toEqual(devices.map(() => 1));
    // Which process sent how many (each logs its runs that sent): both take part when both are running.
    const sentBy = servers.map((s) => [...s.logs().matchAll(/"sent":(\d+)[^\n]*reminders sent/g)].reduce((sum, m) => sum + Number(m[1]), 0));

    // A restart (a deploy) runs the job again from scratch: the database remembers what was sent.
    await servers[0].stop();
    servers[0] = await startServer(env);
    await new Promise((resolve) => setTimeout(resolve, 3_500));
    expect(countsByDevice()).toEqual(devices.map(() => 1));

    const { publicKey } = vapidKeysFor(SHARED_AUTH_SECRET, { publicKey: undefined, privateKey: undefined });
    expect(new Set(service.received.map((m) => m.vapidPublicKey))).toEqual(new Set([publicKey]));
    for (const [i, device] of devices.entries()) expect(device.decrypt(service.received.find((m) => device.endpoint.endsWith(m.path))!), `device ${i}`).toMatchObject({ day: today });
    console.log(`reminders: ${devices.length} devices, 2 processes each running every 1 s; all sent within ${allSentMs} ms; ${service.received.length} pushes in total (exactly one per device), after a restart too; sent by each process: ${sentBy.join(' + ')}`);
  });
});
