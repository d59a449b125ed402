/**
 * The one place the app learns where it runs (issue 19, item 2): a `Platform` chosen once at start
 * from the shell (detect.ts), web or native. Features ask it for what differs (links opened from
 * outside, later sign-in, purchases and downloads) and never ask "am I native?" themselves.
 */
import { detectPlatformKind, type PlatformKind } from '#web/platform/detect.ts';

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
   * The headers that say who is asking. The web adds none (the HttpOnly cookie goes by itself); the
   * apps ask for bearer sessions and send the one kept in the device's secure storage.
   */
  sessionHeaders(): Promise<Record<string, string>>;
  /** Takes what an answer says about the session: inside the apps, a sign-in's `set-auth-token` is kept. */
  noteResponse(response: Response): Promise<void>;
  /** Signing out: inside the apps, the kept token is forgotten. */
  forgetSession(): Promise<void>;
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
  sessionHeaders: () => none,
  noteResponse: () => done,
  forgetSession: () => done,
};

/**
 * Inside the apps, the native implementation and Capacitor's plugins load on first use, as one chunk
 * (vite.config.ts): the web's first load carries none of them, only this forwarding shell.
 */
function lazyNativePlatform(kind: Exclude<PlatformKind, 'web'>): Platform {
  // The server the apps talk to is fixed when the web app is built for them (VITE_SERVER_URL,
  // docs/native.md); without it, the page's own origin (a shell pointed at a development server).
  const server = (import.meta.env.VITE_SERVER_URL as string | undefined) || window.location.origin;
  const native = import('#web/platform/native-platform.ts').then((m) => m.createNativePlatform(kind, { loadApp: m.loadAppPlugin, loadStorage: m.loadSecureStorage, server }));
  return {
    kind,
    native: true,
    apiUrl: onServer(server),
    sessionHeaders: async () => (await native).sessionHeaders(),
    noteResponse: async (response) => (await native).noteResponse(response),
    forgetSession: async () => (await native).forgetSession(),
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

let chosen: Platform | undefined;

export function platform(): Platform {
  chosen ??= ((kind) => (kind === 'web' ? webPlatform : lazyNativePlatform(kind)))(detectPlatformKind());
  return chosen;
}
