/**
 * Lock-screen, headset and OS media controls through the Media Session API, where the browser
 * has it. Everything is optional: browsers without it simply skip this.
 */
import { useEffect, useRef } from 'react';
import { AUDIO } from '#shared/constants.ts';
import type { PlayerApi } from '#web/features/player/player-context.tsx';
import { neighbours } from '#web/features/player/player-machine.ts';

const ARTWORK = [
  { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png' },
  { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png' },
];

export function useMediaSession(player: PlayerApi): void {
  const latest = useRef(player);
  latest.current = player;
  const session = typeof navigator !== 'undefined' && 'mediaSession' in navigator ? navigator.mediaSession : null;
  const { previous, next } = neighbours(player);

  useEffect(() => {
    if (!session) return;
    const track = player.current;
    session.metadata = track && typeof MediaMetadata !== 'undefined' ? new MediaMetadata({ title: track.title, artist: 'Harbour Mind', album: track.category, artwork: ARTWORK }) : null;
  }, [session, player.current]);

  useEffect(() => {
    if (!session) return;
    session.playbackState = player.status === 'playing' ? 'playing' : player.current ? 'paused' : 'none';
  }, [session, player.status, player.current]);

  useEffect(() => {
    if (!session || !player.current || !(player.duration > 0)) return;
    try {
      session.setPositionState({ duration: player.duration, position: Math.min(player.currentTime, player.duration), playbackRate: player.rate });
    } catch {
      /* some browsers reject position updates while metadata loads */
    }
  }, [session, player.current, player.currentTime, player.duration, player.rate]);

  useEffect(() => {
    if (!session) return;
    const handlers: [MediaSessionAction, MediaSessionActionHandler | null][] = [
      ['play', () => latest.current.status !== 'playing' && latest.current.toggle()],
      ['pause', () => latest.current.status === 'playing' && latest.current.toggle()],
      ['stop', () => latest.current.close()],
      ['seekbackward', (d) => latest.current.seekBy(-(d.seekOffset ?? AUDIO.seekStepSeconds))],
      ['seekforward', (d) => latest.current.seekBy(d.seekOffset ?? AUDIO.seekStepSeconds)],
      ['seekto', (d) => d.seekTime != null && latest.current.duration > 0 && latest.current.seekToPercent((d.seekTime / latest.current.duration) * 100)],
      ['previoustrack', previous ? () => latest.current.previous() : null],
      ['nexttrack', next ? () => latest.current.next() : null],
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
          /* ignore */
        }
      }
    };
  }, [session, Boolean(previous), Boolean(next)]);
}
