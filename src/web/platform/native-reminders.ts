/**
 * Reminders inside the apps (issue 20, item 4): local notifications the device schedules itself
 * (@capacitor/local-notifications), so they come on time with no network and no server. The next
 * fortnight is scheduled, one per chosen day with that day's affirmation, and rescheduled whenever
 * the app opens or the settings change. "Turn off reminders" is an action on each notification.
 */
import type { ActionPerformed, LocalNotificationsPlugin, PermissionStatus } from '@capacitor/local-notifications';
import { REMINDER, REMINDER_MESSAGES, upcomingReminders, type ReminderSettings } from '#shared/reminders.ts';
import { ReminderDeviceError, type ReminderDevice, type ReminderPermission } from '#web/platform/reminder-device.ts';

export type LocalNotificationsLike = Pick<LocalNotificationsPlugin, 'schedule' | 'getPending' | 'cancel' | 'registerActionTypes' | 'checkPermissions' | 'requestPermissions'> & {
  addListener(eventName: 'localNotificationActionPerformed', listener: (event: ActionPerformed) => void): Promise<{ remove: () => Promise<void> }>;
};

const ACTION_TYPE = 'harbour-mind-reminder';
const OFF_ACTION = 'turn-off';
/** The reminders' notification ids: a block of their own, so cancelling them touches nothing else. */
const FIRST_ID = 7_001;
const isReminder = (id: number) => id >= FIRST_ID && id < FIRST_ID + REMINDER.scheduledAhead;

const permissionOf = (status: PermissionStatus): ReminderPermission => (status.display === 'granted' ? 'granted' : status.display === 'denied' ? 'denied' : 'prompt');

export function createNativeReminders(load: () => Promise<LocalNotificationsLike>, now: () => Date = () => new Date()): ReminderDevice {
  let plugin: Promise<LocalNotificationsLike> | undefined;
  const notifications = () =>
    (plugin ??= load().then(async (loaded) => {
      await loaded.registerActionTypes({ types: [{ id: ACTION_TYPE, actions: [{ id: OFF_ACTION, title: REMINDER_MESSAGES.offAction, destructive: true }] }] });
      return loaded;
    }));

  async function cancelScheduled(local: LocalNotificationsLike): Promise<void> {
    const { notifications: pending } = await local.getPending();
    const ours = pending.filter((n) => isReminder(n.id));
    if (ours.length > 0) await local.cancel({ notifications: ours.map((n) => ({ id: n.id })) });
  }

  async function schedule(settings: ReminderSettings): Promise<void> {
    const local = await notifications();
    await cancelScheduled(local);
    const upcoming = upcomingReminders(settings, now());
    if (upcoming.length === 0) return;
    await local.schedule({
      notifications: upcoming.map((reminder, i) => ({
        id: FIRST_ID + i,
        title: REMINDER.title,
        body: reminder.message,
        actionTypeId: ACTION_TYPE,
        extra: { day: reminder.day },
        // A gentle nudge: an inexact alarm is fine, and Android never sends the person to its alarm settings for it.
        schedule: { at: reminder.at, allowWhileIdle: true },
        isExactNotification: false,
      })),
    });
  }

  return {
    async permission() {
      return permissionOf(await (await notifications()).checkPermissions());
    },
    async isReceiving() {
      const { notifications: pending } = await (await notifications()).getPending();
      return pending.some((n) => isReminder(n.id));
    },
    async enable(settings) {
      const local = await notifications();
      if (permissionOf(await local.requestPermissions()) !== 'granted') throw new ReminderDeviceError('denied');
      await schedule(settings);
    },
    update: schedule,
    async forget() {
      await cancelScheduled(await notifications());
    },
    async onTurnedOff(listener) {
      const handle = await (await notifications()).addListener('localNotificationActionPerformed', (event: ActionPerformed) => {
        if (event.actionId === OFF_ACTION && isReminder(event.notification.id)) listener();
      });
      return () => void handle.remove();
    },
  };
}
