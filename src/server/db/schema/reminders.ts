/**
 * Daily reminders (issue 20, item 4): one person's settings, the devices that receive them by Web
 * Push, and which device has had which day's reminder. The last table is how "never more than one a
 * day" and "not twice across two processes" hold: a process sends only after inserting the row, and
 * the primary key lets one insert win.
 */
import { boolean, index, integer, pgTable, primaryKey, text, uuid } from 'drizzle-orm/pg-core';
import { ownerId } from './auth.ts';
import { parentId, stampedAt, timestampTz } from './columns.ts';

export const reminderSettings = pgTable('reminder_settings', {
  userId: ownerId().primaryKey(),
  enabled: boolean('enabled').notNull().default(false),
  /** Local wall-clock time, HH:MM. */
  time: text('time').notNull(),
  /** Chosen weekdays, 0 = Monday … 6 = Sunday. */
  days: integer('days').array().notNull(),
  timeZone: text('time_zone').notNull(),
  /** How the reminder arrives (issue 38, item 6): 'push' to this account's devices, or 'email' to its verified address. */
  channel: text('channel', { enum: ['push', 'email'] }).notNull().default('push'),
  /**
   * Part of every e-mail reminder's "turn off" token: raised each time e-mail reminders are turned on,
   * so a link from a mail sent before then no longer turns off the reminders chosen since.
   */
  mailOffVersion: integer('mail_off_version').notNull().default(0),
  updatedAt: stampedAt('updated_at'),
});

/** A browser's push subscription: where to send and the keys to encrypt for it (RFC 8291). */
export const pushSubscriptions = pgTable(
  'push_subscriptions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: ownerId(),
    /** The push service's URL for this device: unique, a device belongs to whoever subscribed it last. */
    endpoint: text('endpoint').notNull().unique(),
    p256dh: text('p256dh').notNull(),
    auth: text('auth').notNull(),
    createdAt: stampedAt('created_at'),
    lastSentAt: timestampTz('last_sent_at'),
  },
  (t) => [index('push_subscriptions_user_idx').on(t.userId)],
);

export const reminderDeliveries = pgTable(
  'reminder_deliveries',
  {
    subscriptionId: parentId('subscription_id', () => pushSubscriptions.id),
    /** The person's local calendar day the reminder was for. */
    day: text('day').notNull(),
    claimedAt: stampedAt('claimed_at'),
  },
  (t) => [primaryKey({ columns: [t.subscriptionId, t.day] })],
);

/**
 * Which person has had which local day's reminder by e-mail (issue 38, item 6): as reminder_deliveries
 * for devices, a process sends only after its insert won, so nobody gets two mails for one day.
 */
export const reminderMailDeliveries = pgTable(
  'reminder_mail_deliveries',
  {
    userId: ownerId(),
    /** The person's local calendar day the reminder was for. */
    day: text('day').notNull(),
    claimedAt: stampedAt('claimed_at'),
  },
  (t) => [primaryKey({ columns: [t.userId, t.day] }), index('reminder_mail_deliveries_claimed_idx').on(t.claimedAt)],
);
