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
}

const webPlatform: Platform = { kind: 'web', native: false, onOpenedLink: () => () => undefined };

/**
 * Inside the apps, the native implementation and Capacitor's plugins load on first use, as one chunk
 * (vite.config.ts): the web's first load carries none of them, only this forwarding shell.
 */
function lazyNativePlatform(kind: Exclude<PlatformKind, 'web'>): Platform {
  const native = import('#web/platform/native-platform.ts').then((m) => m.createNativePlatform(kind, m.loadAppPlugin));
  return {
    kind,
    native: true,
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
