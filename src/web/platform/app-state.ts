/**
 * Whether the app is in front of the person (issue 36, item 1: the journal locks after long enough in
 * the background). Inside the apps, @capacitor/app's `appStateChange`: a WebView's timers and
 * `visibilitychange` are not reliable once the app is sent to the background, and the event arrives as
 * it comes back, before the person can read anything. On the web, the page's visibility. Loaded only by
 * the features that need it, never on the first load.
 */
import { platform } from '#web/platform/platform.ts';

/** The part of @capacitor/app's `App` plugin used here: its `appStateChange` event (`{ isActive }`). */
export type AppStatePluginLike = {
  addListener(eventName: 'appStateChange', listener: (event: { isActive: boolean }) => void): Promise<{ remove: () => Promise<void> }>;
};

/** The real plugin, wrapped: a Capacitor plugin proxy must never be what a promise resolves to (native-platform.ts). */
async function loadAppStatePlugin(): Promise<AppStatePluginLike> {
  const { App } = await import('@capacitor/app');
  return { addListener: (eventName, listener) => App.addListener(eventName, listener) };
}

/** Calls `listener(active)` each time the app comes to the front (true) or leaves it (false). Returns the unsubscribe. */
export function watchAppState(listener: (active: boolean) => void, { native = platform().native, loadPlugin = loadAppStatePlugin }: { native?: boolean; loadPlugin?: () => Promise<AppStatePluginLike> } = {}): () => void {
  if (!native) {
    const onVisibility = () => listener(document.visibilityState === 'visible');
    document.addEventListener('visibilitychange', onVisibility);
    return () => document.removeEventListener('visibilitychange', onVisibility);
  }
  let stopped = false;
  let remove: (() => Promise<void>) | undefined;
  void loadPlugin()
    .then((app) => app.addListener('appStateChange', ({ isActive }) => listener(isActive)))
    .then((handle) => {
      if (stopped) void handle.remove();
      else remove = handle.remove;
    })
    .catch((error: unknown) => console.warn('app state not watched', error));
  return () => {
    stopped = true;
    void remove?.();
  };
}
