/**
 * The global player's state and its single <audio> element, mounted once in the layout so
 * playback continues across route changes. Playback URLs come from the server's entitlement
 * endpoint; nothing here decides who may listen.
 */
import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import type { MeditationCard } from '#shared/contracts/catalogue.ts';
import { api, ApiError } from '#web/lib/api.ts';

export const LOAD_TIMEOUT_MS = 10_000;

type Status = 'idle' | 'loading' | 'playing' | 'paused' | 'error';

type PlayerState = {
  current: MeditationCard | null;
  status: Status;
  currentTime: number;
  duration: number;
  error: string | null;
};

type PlayerApi = PlayerState & {
  /** Spec: choosing a track plays it; the same track while playing pauses, while paused resumes. */
  choose(meditation: MeditationCard): void;
  toggle(): void;
  seekToPercent(percent: number): void;
  close(): void;
};

const PlayerContext = createContext<PlayerApi | null>(null);

export function usePlayer(): PlayerApi {
  const value = useContext(PlayerContext);
  if (!value) throw new Error('usePlayer must be used inside PlayerProvider');
  return value;
}

export function PlayerProvider({ children }: { children: ReactNode }) {
  const audioRef = useRef<HTMLAudioElement | null>(null);
  const loadTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const [state, setState] = useState<PlayerState>({ current: null, status: 'idle', currentTime: 0, duration: 0, error: null });
  const stateRef = useRef(state);
  stateRef.current = state;

  const fail = useCallback((message: string) => {
    clearTimeout(loadTimer.current);
    console.error('player:', message);
    setState((s) => ({ ...s, status: 'error', error: message }));
  }, []);

  const start = useCallback(
    async (meditation: MeditationCard) => {
      const audio = audioRef.current;
      if (!audio) return;
      audio.pause();
      setState({ current: meditation, status: 'loading', currentTime: 0, duration: meditation.durationSeconds ?? 0, error: null });
      try {
        const { url } = await api<{ url: string }>(`/api/meditations/${meditation.id}/playback`);
        if (stateRef.current.current?.id !== meditation.id) return; // another track was chosen meanwhile
        clearTimeout(loadTimer.current);
        loadTimer.current = setTimeout(() => fail('This meditation is taking too long to load. Please check your connection and try again.'), LOAD_TIMEOUT_MS);
        audio.src = url;
        await audio.play();
      } catch (error) {
        if (error instanceof DOMException && error.name === 'AbortError') return;
        fail(error instanceof ApiError ? error.message : 'Playback failed. Please try again.');
      }
    },
    [fail],
  );

  const api_ = useMemo<PlayerApi>(
    () => ({
      ...state,
      choose(meditation) {
        const { current, status } = stateRef.current;
        const audio = audioRef.current;
        if (current?.id === meditation.id && audio) {
          if (status === 'playing') return audio.pause();
          if (status === 'paused') return void audio.play();
        }
        void start(meditation);
      },
      toggle() {
        const audio = audioRef.current;
        if (!audio || !stateRef.current.current) return;
        if (audio.paused) void audio.play();
        else audio.pause();
      },
      seekToPercent(percent) {
        const audio = audioRef.current;
        if (!audio || !Number.isFinite(audio.duration)) return;
        audio.currentTime = (Math.min(100, Math.max(0, percent)) / 100) * audio.duration;
      },
      close() {
        const audio = audioRef.current;
        clearTimeout(loadTimer.current);
        if (audio) {
          audio.pause();
          audio.removeAttribute('src');
          audio.load();
        }
        setState({ current: null, status: 'idle', currentTime: 0, duration: 0, error: null });
      },
    }),
    [state, start],
  );

  useEffect(() => () => clearTimeout(loadTimer.current), []);

  return (
    <PlayerContext.Provider value={api_}>
      {children}
      <audio
        ref={audioRef}
        preload="auto"
        data-testid="player-audio"
        onPlaying={() => {
          clearTimeout(loadTimer.current);
          setState((s) => ({ ...s, status: 'playing', error: null }));
        }}
        onPause={() => setState((s) => (s.current && s.status !== 'error' ? { ...s, status: 'paused' } : s))}
        onWaiting={() => setState((s) => (s.status === 'playing' ? { ...s, status: 'loading' } : s))}
        onStalled={() => setState((s) => (s.status === 'playing' ? { ...s, status: 'loading' } : s))}
        onTimeUpdate={(e) => {
          const audio = e.currentTarget;
          setState((s) => ({ ...s, currentTime: audio.currentTime, duration: Number.isFinite(audio.duration) ? audio.duration : s.duration }));
        }}
        onEnded={() => setState((s) => ({ ...s, status: 'paused' }))}
        onError={() => {
          if (stateRef.current.current) fail('This meditation could not be played. Please try again.');
        }}
      />
    </PlayerContext.Provider>
  );
}
