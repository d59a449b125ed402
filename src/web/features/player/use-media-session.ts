/**
 * Lock-screen, headset and OS media controls: the page's Media Session API where the browser has it,
 * or the app's own where the platform provides them (Android's WebView has none; issue 19, item 6).
 * Everything is optional: browsers without it simply skip this.
 */
import { useEffect, useSyncExternalStore } from 'react';
import { AUDIO } from '#shared/constants.ts';
import type { PlayerActions } from '#web/features/player/player-actions.ts';
import { neighbours } from '#web/features/player/player-machine.ts';
import type { PlayerStore } from '#web/features/player/player-store.ts';
import { platform, type MediaControlAction, type MediaControls } from '#web/platform/platform.ts';

const ARTWORK = [
  { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png' },
  { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png' },
];

/** The page's Media Session API, as MediaControls; null where the browser has none. */
function pageMediaSession(): MediaControls | null {
  if (typeof navigator === 'undefined' || !('mediaSession' in navigator)) return null;
  const session = navigator.mediaSession;
  return {
    setMetadata: (metadata) => {
      session.metadata = metadata && typeof MediaMetadata !== 'undefined' ? new MediaMetadata(metadata) : null;
    },
    setPlaybackState: (state) => {
      session.playbackState = state;
    },
    setPositionState: (position) => session.setPositionState(position),
    setActionHandler: (action, handler) => session.setActionHandler(action, handler),
  };
}

const mediaSession = (): MediaControls | null => platform().mediaControls ?? pageMediaSession();

export function useMediaSession(store: PlayerStore, actions: PlayerActions): void {
  const { current, status, queue } = useSyncExternalStore(store.subscribe, store.getView, store.getView);
  const { previous, next } = neighbours({ current, queue });
  const hasPrevious = previous !== null;
  const hasNext = next !== null;

  useEffect(() => {
    const session = mediaSession();
    if (!session) return;
    session.setMetadata(current ? { title: current.title, artist: 'Harbour Mind', album: current.category, artwork: ARTWORK } : null);
  }, [current]);

  useEffect(() => {
    const session = mediaSession();
    if (!session) return;
    session.setPlaybackState(status === 'playing' ? 'playing' : current ? 'paused' : 'none');
  }, [status, current]);

  // Closing the player clears the lock screen (on Android this also ends the foreground service).
  useEffect(
    () => () => {
      const session = mediaSession();
      session?.setMetadata(null);
      session?.setPlaybackState('none');
    },
    [],
  );

  // The position follows the store directly: a subscription, not a render per `timeupdate`.
  useEffect(() => {
    const session = mediaSession();
    if (!session) return;
    let last = '';
    const update = () => {
      const { current: track, currentTime, duration, rate } = store.getState();
      if (!track || !(duration > 0)) return;
      const key = `${track.id}|${String(currentTime)}|${String(duration)}|${String(rate)}`;
      if (key === last) return;
      last = key;
      try {
        session.setPositionState({ duration, position: Math.min(currentTime, duration), playbackRate: rate });
      } catch {
        /* some browsers reject position updates while metadata loads */
      }
    };
    update();
    return store.subscribe(update);
  }, [store]);

  useEffect(() => {
    const session = mediaSession();
    if (!session) return;
    const handlers: [MediaControlAction, Parameters<MediaControls['setActionHandler']>[1]][] = [
      ['play', () => store.getState().status !== 'playing' && actions.toggle()],
      ['pause', () => store.getState().status === 'playing' && actions.toggle()],
      ['stop', () => actions.close()],
      ['seekbackward', (d) => actions.seekBy(-(d.seekOffset ?? AUDIO.seekStepSeconds))],
      ['seekforward', (d) => actions.seekBy(d.seekOffset ?? AUDIO.seekStepSeconds)],
      [
        'seekto',
        (d) => {
          const { duration } = store.getState();
          if (d.seekTime != null && duration > 0) actions.seekToPercent((d.seekTime / duration) * 100);
        },
      ],
      ['previoustrack', hasPrevious ? () => actions.previous() : null],
      ['nexttrack', hasNext ? () => actions.next() : null],
    ];
    for (const [action, handler] of handlers) {
      try {
        session.setActionHandler(action, handler);
      } catch {
        /* action not supported by this browser */
      }
    }
    return () => {
      for (const [action] of handlers) {
        try {
          session.setActionHandler(action, null);
        } catch {
          /* action not supported by this browser */
        }
      }
    };
  }, [store, actions, hasPrevious, hasNext]);
}
