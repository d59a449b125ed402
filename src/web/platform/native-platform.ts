/**
 * The native shells' Platform (issue 19, item 2). Plugins are handed in (the real @capacitor/app in
 * the apps; in tests a local fake with the plugin's method names and event shapes), loaded on first
 * use so starting the app never waits on the native bridge.
 */
import { APP_LINK_PATHS } from '#shared/app-links.ts';
import type { PlatformKind } from '#web/platform/detect.ts';
import type { Platform } from '#web/platform/platform.ts';

/** The part of @capacitor/app's `App` plugin used here (its `appUrlOpen` event: `{ url }`). */
export type AppPluginLike = {
  addListener(eventName: 'appUrlOpen', listener: (event: { url: string }) => void): Promise<{ remove: () => Promise<void> }>;
};

/**
 * The real plugin, wrapped: Capacitor's plugin objects are proxies that answer every property
 * (`then` included, with "not implemented"), so one must never be the value a promise resolves to.
 */
export async function loadAppPlugin(): Promise<AppPluginLike> {
  const { App } = await import('@capacitor/app');
  return { addListener: (eventName, listener) => App.addListener(eventName, listener) };
}

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


export function createNativePlatform(kind: Exclude<PlatformKind, 'web'>, loadApp: () => Promise<AppPluginLike>): Platform {
  return {
    kind,
    native: true,
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
