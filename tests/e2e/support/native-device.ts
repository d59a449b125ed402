/**
 * The device behind four more plugins, for a fake shell (native-shell.e2e.ts's `fakeShell`, added
 * first): @capacitor/filesystem's native methods over an in-memory file tree (base64 strings, as the
 * native side answers), and @capgo/capacitor-media-session's, recording what the app tells the lock
 * screen and keeping its action callbacks so a test can press the notification's buttons;
 * @capacitor/local-notifications' (pending notifications, the permission, the action listeners) and
 * @capgo/capacitor-health's (the permission sheet's answer and the samples written).
 * `convertFileSrc` is Capacitor's (the native side installs it): a file's WebView URL, which
 * `serveDeviceFiles` answers from the fake tree, as the WebView's own file handler does.
 */
import type { BrowserContext, Page } from 'playwright-core';
import { SESSION_TRANSPORT_HEADER } from '#shared/constants.ts';
import { ok, type Person } from '#tests/e2e/support/people.ts';

type CapacitorFake = {
  PluginHeaders: { name: string; methods: { name: string; rtype: string }[] }[];
  nativePromise: (plugin: string, method: string, options?: Record<string, unknown>) => Promise<unknown>;
  nativeCallback: (plugin: string, method: string, options: Record<string, unknown>, callback: (data: unknown) => void) => string;
  convertFileSrc?: (uri: string) => string;
};

export function fakeDevicePlugins() {
  const cap = (window as unknown as { Capacitor: CapacitorFake }).Capacitor;
  const files = new Map<string, string>();
  const lockScreen: { method: string; options: Record<string, unknown> }[] = [];
  const actions = new Map<string, (data: unknown) => void>();
  const promise = (name: string) => ({ name, rtype: 'promise' });
  cap.PluginHeaders.push(
    { name: 'Filesystem', methods: ['writeFile', 'readFile', 'deleteFile', 'rmdir', 'getUri', 'mkdir', 'readdir', 'stat'].map(promise) },
    { name: 'MediaSession', methods: [...['setMetadata', 'setPlaybackState', 'setPositionState', 'getPluginVersion'].map(promise), { name: 'setActionHandler', rtype: 'callback' }] },
    { name: 'LocalNotifications', methods: [...['schedule', 'getPending', 'cancel', 'registerActionTypes', 'checkPermissions', 'requestPermissions', 'removeListener', 'removeAllListeners'].map(promise), { name: 'addListener', rtype: 'callback' }] },
    { name: 'Health', methods: ['isAvailable', 'checkAuthorization', 'requestAuthorization', 'saveSample', 'getPluginVersion'].map(promise) },
  );
  // @capacitor/local-notifications' native side: the pending notifications, the permission the person
  // gives when asked (window.answerNotificationPermission), the action types, and the action listeners.
  type Pending = { id: number; title: string; body: string; actionTypeId?: string; extra?: unknown; schedule?: { at?: Date; allowWhileIdle?: boolean } };
  // What the device keeps across an app restart (a reload here): the permissions given, what is scheduled, Health's samples.
  const kept = JSON.parse(sessionStorage.getItem('fake-device') ?? '{}') as { pending?: [number, Pending][]; permission?: 'prompt' | 'granted' | 'denied'; health?: { allowed: boolean; asked: number; samples: Record<string, unknown>[] } };
  const pending = new Map<number, Pending>(kept.pending ?? []);
  const notificationState = { permission: kept.permission ?? 'prompt', answer: 'granted' as 'granted' | 'denied', actionTypes: [] as unknown[] };
  const actionListeners: ((data: unknown) => void)[] = [];
  const localNotifications: Partial<Record<string, (options: Record<string, unknown>) => Promise<unknown>>> = {
    checkPermissions: () => Promise.resolve({ display: notificationState.permission }),
    requestPermissions: () => {
      if (notificationState.permission === 'prompt') notificationState.permission = notificationState.answer;
      return Promise.resolve({ display: notificationState.permission });
    },
    registerActionTypes: (options) => {
      notificationState.actionTypes = options.types as unknown[];
      return Promise.resolve();
    },
    schedule: (options) => {
      if (notificationState.permission !== 'granted') return Promise.reject(new Error('Notifications not allowed'));
      for (const n of options.notifications as Pending[]) pending.set(n.id, n);
      return Promise.resolve({ notifications: (options.notifications as Pending[]).map((n) => ({ id: n.id })) });
    },
    getPending: () => Promise.resolve({ notifications: [...pending.values()].map((n) => ({ id: n.id, title: n.title, body: n.body, schedule: n.schedule, extra: n.extra })) }),
    cancel: (options) => {
      for (const { id } of options.notifications as { id: number }[]) pending.delete(id);
      return Promise.resolve();
    },
    removeListener: () => Promise.resolve(),
    removeAllListeners: () => Promise.resolve(),
  };
  // @capgo/capacitor-health's: HealthKit / Health Connect, with the answer the permission sheet gives (window.answerHealth).
  const health = { available: true, answer: true, ...(kept.health ?? { allowed: false, asked: 0, samples: [] as Record<string, unknown>[] }) };
  const keep = () =>
    sessionStorage.setItem('fake-device', JSON.stringify({ pending: [...pending.entries()], permission: notificationState.permission, health: { allowed: health.allowed, asked: health.asked, samples: health.samples } }));
  const authorization = () => ({ readAuthorized: [], readDenied: [], writeAuthorized: health.allowed ? ['mindfulness'] : [], writeDenied: health.allowed ? [] : ['mindfulness'] });
  const healthPlugin: Partial<Record<string, (options: Record<string, unknown>) => Promise<unknown>>> = {
    isAvailable: () => Promise.resolve({ available: health.available }),
    checkAuthorization: () => Promise.resolve(authorization()),
    requestAuthorization: () => {
      health.asked += 1;
      health.allowed = health.answer;
      return Promise.resolve(authorization());
    },
    saveSample: (options) => {
      if (!health.allowed) return Promise.reject(new Error('Not authorized'));
      health.samples.push(options);
      return Promise.resolve();
    },
  };
  const path = (options: Record<string, unknown>) => `${String(options.directory)}/${String(options.path)}`;
  const missing = () => Promise.reject(new Error('File does not exist'));
  const filesystem: Partial<Record<string, (options: Record<string, unknown>) => Promise<unknown>>> = {
    writeFile: (options) => {
      files.set(path(options), String(options.data));
      return Promise.resolve({ uri: `file:///device/${path(options)}` });
    },
    readFile: (options) => (files.has(path(options)) ? Promise.resolve({ data: files.get(path(options)) }) : missing()),
    deleteFile: (options) => (files.delete(path(options)) ? Promise.resolve() : missing()),
    rmdir: (options) => {
      const inside = [...files.keys()].filter((key) => key.startsWith(`${path(options)}/`));
      if (inside.length === 0) return missing();
      inside.forEach((key) => files.delete(key));
      return Promise.resolve();
    },
  };
  const nativePromise = cap.nativePromise;
  const nativeCallback = cap.nativeCallback;
  cap.nativePromise = (plugin, method, options = {}) => {
    if (plugin === 'Filesystem') return filesystem[method]?.(options) ?? Promise.reject(new Error(`Filesystem.${method} is not faked`));
    if (plugin === 'MediaSession') {
      lockScreen.push({ method, options });
      return Promise.resolve();
    }
    if (plugin === 'LocalNotifications' || plugin === 'Health') {
      const answer = (plugin === 'Health' ? healthPlugin : localNotifications)[method]?.(options) ?? Promise.reject(new Error(`${plugin}.${method} is not faked`));
      return answer.finally(keep);
    }
    return nativePromise(plugin, method, options);
  };
  cap.nativeCallback = (plugin, method, options, callback) => {
    if (plugin === 'LocalNotifications' && options.eventName === 'localNotificationActionPerformed') return String(actionListeners.push(callback));
    if (plugin !== 'MediaSession') return nativeCallback(plugin, method, options, callback);
    actions.set(String(options.action), callback);
    return String(actions.size);
  };
  cap.convertFileSrc = (uri) => `${location.origin}/_capacitor_file_${uri.replace('file://', '')}`;
  Object.assign(window, {
    deviceFiles: () => Object.fromEntries(files),
    lockScreen: () => lockScreen,
    pressLockScreen: (action: string) => actions.get(action)?.({ action }),
    localNotifications: () => ({ permission: notificationState.permission, actionTypes: notificationState.actionTypes, pending: [...pending.values()].map((n) => ({ ...n, at: n.schedule?.at ? new Date(n.schedule.at).toISOString() : null })) }),
    answerNotificationPermission: (answer: 'granted' | 'denied') => (notificationState.answer = answer),
    // The OS calls the listeners when the person taps an action on a delivered notification.
    pressNotificationAction: (actionId: string, id: number) => actionListeners.forEach((listener) => listener({ actionId, notification: pending.get(id) ?? { id } })),
    health: () => ({ asked: health.asked, allowed: health.allowed, samples: health.samples }),
    answerHealth: (allowed: boolean) => (health.answer = allowed),
  });
}

/** Answers the WebView's file URLs (`convertFileSrc`) from the fake device's files. */
export async function serveDeviceFiles(page: Page, contentType = 'audio/mpeg'): Promise<void> {
  await page.route('**/_capacitor_file_/device/**', async (route) => {
    const key = decodeURIComponent(new URL(route.request().url()).pathname.replace('/_capacitor_file_/device/', ''));
    const base64 = await page.evaluate((k) => (window as unknown as { deviceFiles: () => Partial<Record<string, string>> }).deviceFiles()[k], key);
    if (base64 === undefined) return route.fulfill({ status: 404 });
    return route.fulfill({ status: 200, contentType, body: Buffer.from(base64, 'base64') });
  });
}

export const deviceFiles = (page: Page) => page.evaluate(() => (window as unknown as { deviceFiles: () => Record<string, string> }).deviceFiles());
export const lockScreen = (page: Page) => page.evaluate(() => (window as unknown as { lockScreen: () => { method: string; options: Record<string, unknown> }[] }).lockScreen());
type FakeNotifications = { permission: string; actionTypes: { id: string; actions: { id: string; title: string }[] }[]; pending: { id: number; title: string; body: string; actionTypeId?: string; extra?: { day?: string }; at: string | null }[] };
export const localNotifications = (page: Page) => page.evaluate(() => (window as unknown as { localNotifications: () => FakeNotifications }).localNotifications());
export const pressNotificationAction = (page: Page, actionId: string, id: number) => page.evaluate(([a, i]) => (window as unknown as { pressNotificationAction: (a: string, i: number) => void }).pressNotificationAction(a, i), [actionId, id] as const);
export const healthStore = (page: Page) => page.evaluate(() => (window as unknown as { health: () => { asked: number; allowed: boolean; samples: Record<string, unknown>[] } }).health());
export const pressLockScreen = (page: Page, action: string) => page.evaluate((a) => (window as unknown as { pressLockScreen: (a: string) => void }).pressLockScreen(a), action);

/**
 * `person` signed in as the app signs in inside a shell (bearer transport: a token, no cookie), with
 * the token already where the app keeps it: the fake secure store of native-shell.e2e.ts's `fakeShell`
 * (sessionStorage 'fake-keychain', under the key @aparajita/capacitor-secure-storage makes of
 * native-platform.ts's 'harbour-mind.session', JSON-encoded as the plugin stores it). For journeys
 * about something else: signing in on the screen inside the apps has its own. Call before adding
 * `fakeShell`: the store is seeded on the tab's first page only, and kept by the fake from then on.
 */
export async function signedInOnDevice(context: BrowserContext, server: { url: string }, person: Pick<Person, 'email' | 'password'>): Promise<void> {
  const response = await context.request.post(`${server.url}/api/auth/sign-in/email`, {
    data: { email: person.email, password: person.password },
    headers: { origin: server.url, [SESSION_TRANSPORT_HEADER]: 'bearer' },
  });
  await ok(response, 'bearer sign-in');
  const token = response.headers()['set-auth-token'];
  if (!token) throw new Error('The sign-in answered no bearer token');
  const keychain = JSON.stringify({ 'capacitor-storage_harbour-mind.session': JSON.stringify(token) });
  await context.addInitScript((entries) => {
    if (sessionStorage.getItem('fake-keychain') === null) sessionStorage.setItem('fake-keychain', entries);
  }, keychain);
}
