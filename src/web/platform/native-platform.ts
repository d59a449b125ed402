/**
 * The native shells' Platform (issue 19, item 2). Plugins are handed in (the real @capacitor/app and
 * secure storage in the apps; in tests local fakes with the plugins' method names and shapes), loaded
 * on first use so starting the app never waits on the native bridge. The API is the configured
 * server's, with a bearer session kept in the device's secure storage.
 */
import { APP_LINK_PATHS } from '#shared/app-links.ts';
import { SESSION_TRANSPORT_HEADER } from '#shared/constants.ts';
import type { PlatformKind } from '#web/platform/detect.ts';
import { onServer, type Platform } from '#web/platform/platform.ts';

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

/**
 * The real plugins, wrapped: Capacitor's plugin objects are proxies that answer every property,
 * `then` included (by throwing), so one must never be the value a promise resolves to.
 */
export async function loadAppPlugin(): Promise<AppPluginLike> {
  const { App } = await import('@capacitor/app');
  return { addListener: (eventName, listener) => App.addListener(eventName, listener) };
}

export async function loadSecureStorage(): Promise<SecureStorageLike> {
  const { SecureStorage } = await import('@aparajita/capacitor-secure-storage');
  return { get: (key) => SecureStorage.get(key, false), set: (key, value) => SecureStorage.set(key, value, false), remove: (key) => SecureStorage.remove(key) };
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


type Plugins = { loadApp: () => Promise<AppPluginLike>; loadStorage: () => Promise<SecureStorageLike>; server: string };

export function createNativePlatform(kind: Exclude<PlatformKind, 'web'>, { loadApp, loadStorage, server }: Plugins): Platform {
  let storage: Promise<SecureStorageLike> | undefined;
  const secure = () => (storage ??= loadStorage());
  return {
    kind,
    native: true,
    apiUrl: onServer(server),
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
