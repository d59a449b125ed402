/**
 * How this device shows daily reminders (issue 20, item 4). The web: Web Push, sent by the server
 * and shown by the service worker. The apps: local notifications the device schedules itself
 * (@capacitor/local-notifications), a fortnight ahead, rescheduled whenever the app opens.
 */
import type { ReminderSettings } from '#shared/reminders.ts';

export type ReminderPermission = 'granted' | 'denied' | 'prompt' | 'unsupported';

/** Why this device could not be set up: blocked notifications, no support, or anything else. */
export class ReminderDeviceError extends Error {
  constructor(readonly reason: 'denied' | 'unsupported' | 'failed', message: string = reason) {
    super(message);
  }
}

export interface ReminderDevice {
  permission(): Promise<ReminderPermission>;
  /** Whether this device is set up to receive the reminders. */
  isReceiving(): Promise<boolean>;
  /** Asks for permission (call it straight from a tap), then sets this device up for `settings`; `pushKey` is the server's VAPID key. Throws ReminderDeviceError. */
  enable(settings: ReminderSettings, pushKey: string): Promise<void>;
  /**
   * The settings as they are now (after a change, or when the page opens): the apps reschedule (or
   * cancel); a browser that is subscribed makes sure the server still lists it for this account.
   */
  update(settings: ReminderSettings): Promise<void>;
  /** This device stops receiving them (signing out). */
  forget(): Promise<void>;
  /** "Turn off reminders" pressed on a notification; answers the unsubscribe. */
  onTurnedOff(listener: () => void): Promise<() => void>;
}
