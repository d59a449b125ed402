/**
 * The native shells' Platform (issue 19, item 2). Plugins are handed in (the real @capacitor/app and
 * secure storage in the apps; in tests local fakes with the plugins' method names and shapes), loaded
 * on first use so starting the app never waits on the native bridge. The API is the configured
 * server's, with a bearer session kept in the device's secure storage.
 */
import { APP_LINK_PATHS } from '#shared/app-links.ts';
import { SESSION_TRANSPORT_HEADER } from '#shared/constants.ts';
import type { PlatformKind } from '#web/platform/detect.ts';
import { createNativeMediaControls, type MediaSessionPluginLike } from '#web/platform/native-media-controls.ts';
import { createNativeOfflineFiles, type FilesystemLike } from '#web/platform/native-offline-files.ts';
import { later, onServer, type OfflineFiles, type Platform } from '#web/platform/platform.ts';
import { createNativeReminders, type LocalNotificationsLike } from '#web/platform/native-reminders.ts';
import { createNativeMindfulMinutes, type HealthLike } from '#web/platform/native-health.ts';
import { createNativeHaptics, type HapticsLike } from '#web/platform/native-haptics.ts';
import { createNativeFileSaver, type NativeFileSaver, type ShareLike } from '#web/platform/native-save-file.ts';
import { pluginMethods } from '#web/platform/plugin-methods.ts';

/** The part of @capacitor/app's `App` plugin used here (its `appUrlOpen` event: `{ url }`). */
export type AppPluginLike = {
  addListener(eventName: 'appUrlOpen', listener: (event: { url: string }) => void): Promise<{ remove: () => Promise<void> }>;
};

/** The part of @aparajita/capacitor-secure-storage used here (Keychain on iOS, the Android Keystore). */
export type SecureStorageLike = {
  get(key: string): Promise<unknown>;
  set(key: string, value: string): Promise<void>;
  remove(key: string): Promise<unknown>;
};

/** The real plugins, wrapped (pluginMethods: a plugin object must never be what a promise resolves to). */
export async function loadAppPlugin(): Promise<AppPluginLike> {
  const { App } = await import('@capacitor/app');
  return pluginMethods(App, ['addListener']);
}

export async function loadSecureStorage(): Promise<SecureStorageLike> {
  const { SecureStorage } = await import('@aparajita/capacitor-secure-storage');
  return { get: (key) => SecureStorage.get(key, false), set: (key, value) => SecureStorage.set(key, value, false), remove: (key) => SecureStorage.remove(key) };
}

export async function loadFilesystem(): Promise<FilesystemLike> {
  const { Filesystem } = await import('@capacitor/filesystem');
  return pluginMethods(Filesystem, ['writeFile', 'readFile', 'deleteFile', 'rmdir']);
}

export async function loadMediaSession(): Promise<MediaSessionPluginLike> {
  const { MediaSession } = await import('@capgo/capacitor-media-session');
  return pluginMethods(MediaSession, ['setMetadata', 'setPlaybackState', 'setPositionState', 'setActionHandler']);
}

export async function loadLocalNotifications(): Promise<LocalNotificationsLike> {
  const { LocalNotifications } = await import('@capacitor/local-notifications');
  return pluginMethods(LocalNotifications, ['schedule', 'getPending', 'cancel', 'registerActionTypes', 'checkPermissions', 'requestPermissions', 'addListener']);
}

export async function loadHealth(): Promise<HealthLike> {
  const { Health } = await import('@capgo/capacitor-health');
  return pluginMethods(Health, ['isAvailable', 'checkAuthorization', 'requestAuthorization', 'saveSample']);
}

export async function loadHaptics(): Promise<HapticsLike> {
  const { Haptics, ImpactStyle } = await import('@capacitor/haptics');
  return { impactLight: () => Haptics.impact({ style: ImpactStyle.Light }) };
}

export async function loadShare(): Promise<ShareLike> {
  const { Share } = await import('@capacitor/share');
  return pluginMethods(Share, ['share']);
}

let fileSaver: NativeFileSaver | undefined;
/** Files the person asks for (exports, the recovery key), through the share sheet (save-file.ts asks for it inside the apps only). */
export function nativeFileSaver(): NativeFileSaver {
  return (fileSaver ??= createNativeFileSaver({ loadFilesystem, loadShare }));
}

/** Capacitor's own: inside the apps the native side installs it on `window.Capacitor`, mapping a file URI to the WebView's URL for it. */
export async function loadConvertFileSrc(): Promise<(uri: string) => string> {
  const { Capacitor } = await import('@capacitor/core');
  return (uri) => Capacitor.convertFileSrc(uri);
}

/** The secure-storage key of the bearer session (never localStorage: any script could read it there). */
const SESSION_KEY = 'harbour-mind.session';

/** The in-app path of a link the shell opened, or null for a link that is not the app's to open. */
export function openedPath(url: string, allowedPaths: readonly string[]): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  if (parsed.protocol !== 'https:' || !allowedPaths.includes(parsed.pathname)) return null;
  return `${parsed.pathname}${parsed.search}`;
}


type Plugins = {
  loadApp: () => Promise<AppPluginLike>;
  loadStorage: () => Promise<SecureStorageLike>;
  loadFilesystem: () => Promise<FilesystemLike>;
  loadConvertFileSrc: () => Promise<(uri: string) => string>;
  loadMediaSession: () => Promise<MediaSessionPluginLike>;
  loadLocalNotifications: () => Promise<LocalNotificationsLike>;
  loadHealth: () => Promise<HealthLike>;
  loadHaptics: () => Promise<HapticsLike>;
  server: string;
};

export function createNativePlatform(kind: Exclude<PlatformKind, 'web'>, { loadApp, loadStorage, loadFilesystem, loadConvertFileSrc, loadMediaSession, loadLocalNotifications, loadHealth, loadHaptics, server }: Plugins): Platform {
  let storage: Promise<SecureStorageLike> | undefined;
  const secure = () => (storage ??= loadStorage());
  let files: Promise<OfflineFiles> | undefined;
  const offlineFiles = () =>
    (files ??= Promise.all([loadFilesystem(), loadConvertFileSrc()]).then(([filesystem, convertFileSrc]) => createNativeOfflineFiles({ filesystem, storage: secure, convertFileSrc })));
  return {
    offlineFiles: later(offlineFiles),
    // iOS's WKWebView has the Media Session API itself (and the audio background mode keeps it playing).
    mediaControls: kind === 'android' ? createNativeMediaControls(loadMediaSession, onServer(server)) : null,
    reminders: createNativeReminders(loadLocalNotifications),
    mindfulMinutes: createNativeMindfulMinutes(kind, loadHealth),
    haptics: createNativeHaptics(loadHaptics),
    kind,
    native: true,
    apiUrl: onServer(server),
    mediaCrossOrigin: 'anonymous',
    async sessionHeaders() {
      const token = await (await secure()).get(SESSION_KEY);
      // Asking for bearer transport on every call: a sign-in then answers with set-auth-token, not a cookie.
      return { [SESSION_TRANSPORT_HEADER]: 'bearer', ...(typeof token === 'string' && token ? { authorization: `Bearer ${token}` } : {}) };
    },
    async noteResponse(response) {
      const token = response.headers.get('set-auth-token');
      if (token) await (await secure()).set(SESSION_KEY, token);
    },
    async forgetSession() {
      await (await secure()).remove(SESSION_KEY);
    },
    onOpenedLink(listener) {
      let removed = false;
      let handle: { remove: () => Promise<void> } | undefined;
      void loadApp()
        .then((app) =>
          app.addListener('appUrlOpen', ({ url }) => {
            const path = openedPath(url, APP_LINK_PATHS);
            if (path && !removed) listener(path);
          }),
        )
        .then((h) => {
          handle = h;
          if (removed) void h.remove();
        })
        .catch((error: unknown) => console.error('opened links are not available', error));
      return () => {
        removed = true;
        void handle?.remove();
      };
    },
  };
}
