/**
 * The one place the app learns where it runs (issue 19, item 2): a `Platform` chosen once at start
 * from the shell (detect.ts), web or native. Features ask it for what differs (links opened from
 * outside, later sign-in, purchases and downloads) and never ask "am I native?" themselves.
 */
import { detectPlatformKind, type PlatformKind } from '#web/platform/detect.ts';
import type { Purchases } from '#web/platform/store-purchases.ts';
import type { ReminderDevice } from '#web/platform/reminder-device.ts';
import type { MindfulMinutes } from '#web/platform/native-health.ts';

export interface Platform {
  readonly kind: PlatformKind;
  readonly native: boolean;
  /**
   * Links opened from outside the app (a universal link or App Link from an e-mail), as in-app
   * paths with their query. The web has none: the browser opens the page itself. Returns the unsubscribe.
   */
  onOpenedLink(listener: (path: string) => void): () => void;
  /** Where an API path is served: the page's own origin on the web; the configured server inside the apps. */
  apiUrl(path: string): string;
  /**
   * How the player's audio is asked for. Inside the apps the server is another origin: with CORS
   * ('anonymous') the server's consent for the apps' origins applies, where a plain cross-origin read
   * would be refused by the media's `Cross-Origin-Resource-Policy: same-origin`. The web needs none.
   */
  readonly mediaCrossOrigin: 'anonymous' | undefined;
  /**
   * The headers that say who is asking. The web adds none (the HttpOnly cookie goes by itself); the
   * apps ask for bearer sessions and send the one kept in the device's secure storage.
   */
  sessionHeaders(): Promise<Record<string, string>>;
  /** Takes what an answer says about the session: inside the apps, a sign-in's `set-auth-token` is kept. */
  noteResponse(response: Response): Promise<void>;
  /** Signing out: inside the apps, the kept token is forgotten. */
  forgetSession(): Promise<void>;
  /**
   * In-app purchases (the apps: RevenueCat, loaded on first use); the web has none, it sells by
   * checkout. `store` says who sells: on the App Store's iOS, /subscribe shows neither the
   * monthly/yearly toggle nor the 'Already have an account?' card (spec, /subscribe).
   */
  readonly purchases?: { readonly store: 'app_store' | 'play_store'; load(): Promise<Purchases> };
  /**
   * Where offline copies keep their audio: inside the apps, files of their own on the device (issue 19,
   * item 5); on the web none, and the copies' bytes live in IndexedDB with their records.
   */
  readonly offlineFiles: OfflineFiles | null;
  /**
   * Lock-screen, notification and headset controls where the WebView has none of its own (issue 19,
   * item 6): Android's, a media session in a foreground service that also keeps playback going with
   * the screen off. Null means the page's own Media Session API serves (browsers, iOS's WKWebView).
   */
  readonly mediaControls: MediaControls | null;
  /**
   * How daily reminders reach this device (issue 20, item 4): Web Push shown by the service worker
   * on the web (loaded on first use); local notifications the device schedules inside the apps.
   */
  readonly reminders: ReminderDevice;
  /** Completed sessions as mindful minutes in Apple Health / Health Connect (issue 20, item 5): the apps only. */
  readonly mindfulMinutes: MindfulMinutes | null;
  /** The device's haptics engine (issue 37, item 1: a tap at each breathing phase): the apps only. */
  readonly haptics: Haptics | null;
}

/** A light tap of the device's haptics engine (native-haptics.ts). */
export interface Haptics {
  tap(): Promise<void>;
}

/** The Media Session API's verbs, as the player uses them. */
export type MediaControlAction = 'play' | 'pause' | 'stop' | 'seekbackward' | 'seekforward' | 'seekto' | 'previoustrack' | 'nexttrack';
export interface MediaControls {
  setMetadata(metadata: { title: string; artist: string; album: string; artwork: { src: string; sizes: string; type: string }[] } | null): void;
  setPlaybackState(state: 'none' | 'paused' | 'playing'): void;
  setPositionState(position: { duration: number; position: number; playbackRate: number }): void;
  setActionHandler(action: MediaControlAction, handler: ((details: { seekOffset?: number; seekTime?: number | null }) => void) | null): void;
}

/** Offline audio as files on the device, each already sealed by the offline store (AES-GCM, iv first). */
export interface OfflineFiles {
  /** The copies' key, kept in the device's secure store and opened non-extractable. */
  key(): Promise<CryptoKey>;
  /** Stores a sealed copy; answers its path on the device. */
  write(meditationId: string, sealed: Uint8Array): Promise<string>;
  /** The sealed bytes, or null when the file is gone. */
  read(meditationId: string): Promise<Uint8Array | null>;
  remove(meditationId: string): Promise<void>;
  /** Every copy and the key (sign-out, a lapsed subscription). */
  removeAll(): Promise<void>;
  /** A URL the audio element plays: the opened copy as a file in the app's cache, deleted by `release`. */
  playable(meditationId: string, audio: ArrayBuffer): Promise<{ url: string; release: () => void }>;
}

/** Inside the apps an API path is the configured server's; a full URL (a signed media address) stays as it is. */
export const onServer = (server: string) => (path: string) => (path.startsWith('/') ? `${server}${path}` : path);

const none = Promise.resolve({});
const done = Promise.resolve();
const webPlatform: Platform = {
  kind: 'web',
  native: false,
  onOpenedLink: () => () => undefined,
  apiUrl: (path) => path,
  mediaCrossOrigin: undefined,
  sessionHeaders: () => none,
  noteResponse: () => done,
  forgetSession: () => done,
  offlineFiles: null,
  mediaControls: null,
  reminders: later(() => import('#web/platform/web-reminders.ts').then((m) => m.webReminders)),
  mindfulMinutes: null,
  haptics: null,
};

/**
 * Inside the apps, the native implementation and Capacitor's plugins load on first use, as one chunk
 * (vite.config.ts): the web's first load carries none of them, only this forwarding shell.
 */
function lazyNativePlatform(kind: Exclude<PlatformKind, 'web'>): Platform {
  // The server the apps talk to is fixed when the web app is built for them (VITE_SERVER_URL,
  // docs/native.md); without it, the page's own origin (a shell pointed at a development server).
  const server = (import.meta.env.VITE_SERVER_URL as string | undefined) || window.location.origin;
  const native = import('#web/platform/native-platform.ts').then((m) => m.createNativePlatform(kind, { loadApp: m.loadAppPlugin, loadStorage: m.loadSecureStorage, loadFilesystem: m.loadFilesystem, loadConvertFileSrc: m.loadConvertFileSrc, loadMediaSession: m.loadMediaSession, loadLocalNotifications: m.loadLocalNotifications, loadHealth: m.loadHealth, loadHaptics: m.loadHaptics, server }));
  const real = later(() => native);
  return {
    kind,
    native: true,
    apiUrl: onServer(server),
    mediaCrossOrigin: 'anonymous',
    // Until the native code has loaded, calls wait for it.
    sessionHeaders: () => real.sessionHeaders(),
    noteResponse: (response) => real.noteResponse(response),
    forgetSession: () => real.forgetSession(),
    offlineFiles: later(() => native.then((p) => p.offlineFiles as OfflineFiles)),
    mediaControls: kind === 'android' ? later(() => native.then((p) => p.mediaControls as MediaControls)) : null,
    reminders: later(() => native.then((p) => p.reminders)),
    mindfulMinutes: later(() => native.then((p) => p.mindfulMinutes as MindfulMinutes), { storeName: kind === 'ios' ? 'Apple Health' : 'Health Connect' }),
    haptics: later(() => native.then((p) => p.haptics as Haptics)),
    purchases: { store: kind === 'ios' ? 'app_store' : 'play_store', load: () => import('#web/platform/native-store-plugins.ts').then((m) => m.loadPurchases(kind, server)) },
    onOpenedLink(listener) {
      let stop: (() => void) | undefined;
      let stopped = false;
      void native.then((p) => {
        if (!stopped) stop = p.onOpenedLink(listener);
      });
      return () => {
        stopped = true;
        stop?.();
      };
    },
  };
}

/**
 * An object whose methods wait for the real one to load, then call it. Never thenable: a promise
 * must not mistake it for one (the trap Capacitor's plugin proxies set).
 */
export function later<T extends object>(load: () => Promise<T>, known: Partial<T> = {}): T {
  return new Proxy({} as T, {
    // Only named methods: `then` and symbols (inspection, coercion) must not look like methods; what is `known` answers at once.
    get: (_target, name) =>
      name in known ? known[name as keyof T] : name === 'then' || typeof name === 'symbol' ? undefined : (...args: unknown[]) => load().then((real) => (real as Record<string, (...a: unknown[]) => unknown>)[name](...args)),
  });
}

let chosen: Platform | undefined;

export function platform(): Platform {
  chosen ??= ((kind) => (kind === 'web' ? webPlatform : lazyNativePlatform(kind)))(detectPlatformKind());
  return chosen;
}
