/**
 * The reminders routes (contracts: reminders.ts). Not in the table: the calendar file
 * (GET /api/reminders/calendar.ics, text/calendar) and the mail client's one-click unsubscribe
 * (POST /api/reminders/email/one-click, a form body), both registered as they were.
 */
import type { remindersSchemas } from '#shared/contracts/reminders.ts';
import { defineRoutes } from '#shared/contracts/route.ts';

export const remindersApi = defineRoutes<typeof remindersSchemas>()('reminders', { defaults: { policy: 'signed-in', cache: 'no-store' } }, {
  /** The settings (`tz`: the device's zone, for a person who never saved any), the VAPID key and the account's address. */
  get: { method: 'GET', path: '/api/reminders' },
  save: { method: 'PUT', path: '/api/reminders' },
  /** This browser's Web Push subscription: 201. */
  addDevice: { method: 'POST', path: '/api/reminders/devices' },
  /** 204: this browser no longer receives reminders. */
  removeDevice: { method: 'DELETE', path: '/api/reminders/devices' },
  /** A push reminder's "Turn off reminders" (the service worker): the signed token it carried is the permission. */
  turnOff: { method: 'POST', path: '/api/reminders/off', policy: 'public' },
  /** An e-mail reminder's turn-off page's button: the signed token in the mail is the permission. */
  mailOff: { method: 'POST', path: '/api/reminders/email/off', policy: 'public' },
});
