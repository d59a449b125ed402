/**
 * Android's lock-screen and notification controls (issue 19, item 6). Android's WebView has no Media
 * Session API of its own and pauses with the screen off, so the app tells
 * @capgo/capacitor-media-session, which runs a media session in a foreground service (type
 * mediaPlayback) while something plays: the notification's controls, headset buttons, and playback
 * that continues with the screen off. The plugin is handed in (a local fake in tests).
 */
import type { MediaControls } from '#web/platform/platform.ts';

type Action = Parameters<MediaControls['setActionHandler']>[0];

/** The part of @capgo/capacitor-media-session's `MediaSession` plugin used here, with its shapes. */
export type MediaSessionPluginLike = {
  setMetadata(options: { title?: string; artist?: string; album?: string; artwork?: { src: string; sizes?: string; type?: string }[] }): Promise<void>;
  setPlaybackState(options: { playbackState: 'none' | 'paused' | 'playing' }): Promise<void>;
  setPositionState(options: { duration?: number; playbackRate?: number; position?: number }): Promise<void>;
  setActionHandler(options: { action: Action }, handler: ((details: { action: Action; seekTime?: number | null }) => void) | null): Promise<void>;
};

/**
 * `absolute` turns the artwork's path into the server's URL: the plugin fetches it natively, and the
 * WebView's own origin (https://localhost) exists only inside the WebView.
 */
export function createNativeMediaControls(load: () => Promise<MediaSessionPluginLike>, absolute: (path: string) => string): MediaControls {
  let plugin: Promise<MediaSessionPluginLike> | undefined;
  // One queue: the plugin sees calls in the order the player made them (a play's metadata before its state).
  let queue: Promise<unknown> = Promise.resolve();
  const tell = (call: (session: MediaSessionPluginLike) => Promise<void>) => {
    queue = queue
      .then(async () => call(await (plugin ??= load())))
      .catch((error: unknown) => console.warn('media controls', error));
  };
  return {
    setMetadata: (metadata) => {
      // Nothing to show: the session ends with the 'none' state that comes with it.
      if (metadata) tell((s) => s.setMetadata({ ...metadata, artwork: metadata.artwork.map((image) => ({ ...image, src: absolute(image.src) })) }));
    },
    setPlaybackState: (playbackState) => tell((s) => s.setPlaybackState({ playbackState })),
    setPositionState: (position) => tell((s) => s.setPositionState(position)),
    setActionHandler: (action, handler) => tell((s) => s.setActionHandler({ action }, handler && ((details) => handler({ seekTime: details.seekTime })))),
  };
}
