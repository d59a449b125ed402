/**
 * Reminders in a browser: a Web Push subscription for the server's VAPID key, registered with the
 * server, shown by the service worker (public/reminder-sw.js). Loaded only when asked for.
 */
import { remindersApi } from '#shared/contracts/reminders.routes.ts';
import type { InputOf } from '#shared/contracts/route.ts';
import { call } from '#web/lib/call.ts';
import { ReminderDeviceError, type ReminderDevice, type ReminderPermission } from '#web/platform/reminder-device.ts';

const supported = () => 'serviceWorker' in navigator && 'PushManager' in window && 'Notification' in window;

async function registration(): Promise<ServiceWorkerRegistration> {
  // The service worker registers after the first paint; a page opened a moment ago may still be waiting for it.
  const timeout = new Promise<never>((_, reject) => setTimeout(() => reject(new ReminderDeviceError('unsupported')), 10_000));
  return Promise.race([navigator.serviceWorker.ready, timeout]);
}

const base64url = (bytes: ArrayBuffer | null) => (bytes ? btoa(String.fromCharCode(...new Uint8Array(bytes))).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '') : '');

/** The subscription as the browser writes it (a push subscription's has its endpoint and keys); the server checks it. */
const subscriptionBody = (subscription: PushSubscription) => subscription.toJSON() as InputOf<typeof remindersApi.addDevice>['body'];

async function currentSubscription(): Promise<PushSubscription | null> {
  if (!supported()) return null;
  const existing = await navigator.serviceWorker.getRegistration();
  return (await existing?.pushManager.getSubscription()) ?? null;
}

export const webReminders: ReminderDevice = {
  permission(): Promise<ReminderPermission> {
    if (!supported()) return Promise.resolve('unsupported');
    return Promise.resolve(Notification.permission === 'default' ? 'prompt' : Notification.permission);
  },

  async isReceiving() {
    return Boolean(await currentSubscription());
  },

  async enable(_settings, pushKey) {
    if (!supported()) throw new ReminderDeviceError('unsupported');
    if ((await Notification.requestPermission()) !== 'granted') throw new ReminderDeviceError('denied');
    const pushManager = (await registration()).pushManager;
    let subscription = await pushManager.getSubscription();
    // Subscribed for another key (the server's pair changed): push services would refuse our messages to it.
    if (subscription && base64url(subscription.options.applicationServerKey) !== pushKey.replace(/=+$/, '')) {
      await subscription.unsubscribe();
      subscription = null;
    }
    try {
      subscription ??= await pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: pushKey });
    } catch (error) {
      throw new ReminderDeviceError(error instanceof DOMException && error.name === 'NotAllowedError' ? 'denied' : 'failed', String(error));
    }
    await call(remindersApi.addDevice, { body: subscriptionBody(subscription) });
  },

  async update(settings) {
    // The server follows the settings itself; this browser only makes sure it is still on the
    // account's list (the push service may have renewed it, or another account used this browser since).
    const subscription = settings.enabled ? await currentSubscription() : null;
    if (subscription) await call(remindersApi.addDevice, { body: subscriptionBody(subscription) });
  },

  async forget() {
    const subscription = await currentSubscription();
    if (!subscription) return;
    await call(remindersApi.removeDevice, { body: { endpoint: subscription.endpoint } }).catch(() => undefined);
    await subscription.unsubscribe().catch(() => false);
  },

  onTurnedOff(listener) {
    if (!('serviceWorker' in navigator)) return Promise.resolve(() => undefined);
    // The service worker tells open pages when a reminder's "Turn off reminders" was pressed.
    const onMessage = (event: MessageEvent) => {
      if ((event.data as { type?: string } | null)?.type === 'reminders-off') listener();
    };
    navigator.serviceWorker.addEventListener('message', onMessage);
    return Promise.resolve(() => navigator.serviceWorker.removeEventListener('message', onMessage));
  },
};
