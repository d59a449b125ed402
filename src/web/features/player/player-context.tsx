/**
 * The global player: the pure state machine (player-machine.ts) wired to two <audio> elements,
 * mounted once in the layout so playback continues across route changes. Two elements let a new
 * track crossfade in over the old one. Playback URLs come from the server's entitlement endpoint;
 * nothing here decides who may listen.
 */
import { useQueryClient } from '@tanstack/react-query';
import { createContext, useCallback, useContext, useEffect, useMemo, useReducer, useRef, useState, type ReactNode } from 'react';
import { AUDIO, STORAGE_KEYS } from '#shared/constants.ts';
import type { MeditationCard } from '#shared/contracts/catalogue.ts';
import { MESSAGES } from '#shared/messages.ts';
import { toast } from 'sonner';
import { ApiError } from '#web/lib/api.ts';
import { useOfflineEntitlementSync } from '#web/features/downloads/use-downloads.ts';
import { useViewer } from '#web/features/auth/use-viewer.ts';
import { clampVolume, crossfadeSchedule, fadeInSchedule, fadeOutSchedule, runFade } from '#web/features/player/fades.ts';
import { resolveSource, streamingSource, type PlaybackSource } from '#web/features/player/playback-source.ts';
import { initialPlayerState, neighbours, percentToTime, playerReducer, skipTarget, type PlayerState } from '#web/features/player/player-machine.ts';
import { useMediaSession } from '#web/features/player/use-media-session.ts';
import { usePlayerKeyboard } from '#web/features/player/use-player-keyboard.ts';
import { enqueueSession, flushSessions } from '#web/features/practice/session-queue.ts';
import { PRACTICE_QUERY_KEY, sendSession } from '#web/features/practice/use-practice.ts';

export type PlayerApi = PlayerState & {
  /** Spec: choosing a track plays it; the same track while playing pauses, while paused resumes. */
  choose(meditation: MeditationCard, queue?: readonly MeditationCard[]): void;
  toggle(): void;
  seekToPercent(percent: number): void;
  seekBy(seconds: number): void;
  previous(): void;
  next(): void;
  close(): void;
  expand(): void;
  minimise(): void;
  setRate(rate: number): void;
  /** Minutes until playback fades out and pauses; null cancels. */
  setSleepTimer(minutes: number | null): void;
};

const PlayerContext = createContext<PlayerApi | null>(null);

export function usePlayer(): PlayerApi {
  const value = useContext(PlayerContext);
  if (!value) throw new Error('usePlayer must be used inside PlayerProvider');
  return value;
}

function readSavedRate(): number {
  try {
    const saved = JSON.parse(localStorage.getItem(STORAGE_KEYS.playerPreferences) ?? '{}') as { rate?: unknown };
    return (AUDIO.playbackRates as readonly number[]).includes(saved.rate as number) ? (saved.rate as number) : 1;
  } catch {
    return 1;
  }
}

function stopElement(audio: HTMLAudioElement | null) {
  if (!audio) return;
  audio.pause();
  if (audio.hasAttribute('src')) {
    audio.removeAttribute('src');
    audio.load();
  }
}

export function PlayerProvider({ children }: { children: ReactNode }) {
  const [state, dispatch] = useReducer(playerReducer, initialPlayerState, (s) => ({ ...s, rate: readSavedRate() }));
  const stateRef = useRef(state);
  stateRef.current = state;

  const elements = [useRef<HTMLAudioElement>(null), useRef<HTMLAudioElement>(null)] as const;
  const [activeIndex, setActiveIndex] = useState(0);
  const activeIndexRef = useRef(0);
  const active = () => elements[activeIndexRef.current].current;

  const source = useRef<PlaybackSource | null>(null);
  const fetchAbort = useRef<AbortController | null>(null);
  const fade = useRef<{ cancel(): void } | null>(null);
  const loadTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  /** A signed URL is refreshed at most once per failure, so a broken file cannot loop. */
  const refreshing = useRef(false);

  const viewer = useViewer();
  const userId = viewer.user?.id ?? null;
  const userIdRef = useRef(userId);
  userIdRef.current = userId;
  const queryClient = useQueryClient();

  const fail = useCallback((message: string, detail?: unknown) => {
    clearTimeout(loadTimer.current);
    console.error('player:', message, detail ?? '');
    dispatch({ type: 'error', message });
  }, []);

  const releaseSource = () => {
    source.current?.release?.();
    source.current = null;
  };

  const stopAll = useCallback(() => {
    fade.current?.cancel();
    fetchAbort.current?.abort();
    clearTimeout(loadTimer.current);
    stopElement(elements[0].current);
    stopElement(elements[1].current);
    releaseSource();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  const start = useCallback(
    async (meditation: MeditationCard, queue: readonly MeditationCard[]) => {
      const outgoing = active();
      const crossfade = Boolean(outgoing && !outgoing.paused && outgoing.hasAttribute('src'));
      const playId = crypto.randomUUID();
      fade.current?.cancel();
      fetchAbort.current?.abort();
      clearTimeout(loadTimer.current);
      const controller = new AbortController();
      fetchAbort.current = controller;
      dispatch({ type: 'start', meditation, queue, playId });

      // Spec 'Player start': a short delay lets the sheet open before the audio starts.
      await new Promise((resolve) => setTimeout(resolve, AUDIO.startDelayMs));
      let next: PlaybackSource;
      try {
        next = await resolveSource({
          meditationId: meditation.id,
          userId: userIdRef.current,
          signal: controller.signal,
          onLocalFailure: (error) => {
            console.warn('player: offline copy unusable, streaming instead', error);
            toast.error(MESSAGES.player.offlinePlaybackFailed, { description: MESSAGES.player.offlinePlaybackFailedBody });
          },
        });
      } catch (error) {
        if (controller.signal.aborted) return;
        return fail(error instanceof ApiError ? error.message : MESSAGES.player.playbackFailed, error);
      }
      if (controller.signal.aborted || stateRef.current.playId !== playId) return next.release?.();

      const previousSource = source.current;
      source.current = next;
      refreshing.current = false;
      dispatch({ type: 'source-ready', playId, transcript: next.transcript, local: next.local });

      const incomingIndex = crossfade ? 1 - activeIndexRef.current : activeIndexRef.current;
      const incoming = elements[incomingIndex].current!;
      activeIndexRef.current = incomingIndex;
      setActiveIndex(incomingIndex);
      if (!crossfade) stopElement(outgoing === incoming ? null : outgoing);

      incoming.volume = 0;
      incoming.src = next.url;
      incoming.playbackRate = stateRef.current.rate;
      loadTimer.current = setTimeout(() => {
        if (stateRef.current.playId === playId && stateRef.current.status === 'loading') fail(MESSAGES.player.loadTimeout);
      }, AUDIO.loadTimeoutMs);
      try {
        await incoming.play();
      } catch (error) {
        if (error instanceof DOMException && error.name === 'AbortError') return;
        // NotAllowedError: the browser refused autoplay; the user can press play.
        if (error instanceof DOMException && error.name === 'NotAllowedError') {
          clearTimeout(loadTimer.current);
          incoming.volume = 1;
          dispatch({ type: 'paused' });
          return;
        }
        return fail(MESSAGES.player.playbackFailed, error);
      }
      const schedule = crossfade ? crossfadeSchedule() : fadeInSchedule();
      const running = runFade(schedule, (step) => {
        incoming.volume = clampVolume(step.incoming);
        if (crossfade && outgoing) outgoing.volume = clampVolume(step.outgoing);
      });
      fade.current = running;
      await running.done;
      incoming.volume = 1;
      if (crossfade && outgoing) {
        stopElement(outgoing);
        outgoing.volume = 1;
        previousSource?.release?.();
      }
    },
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [fail],
  );

  /** Swaps in a fresh signed URL at the same position (expired links, or a 403 mid-stream). */
  const refreshUrl = useCallback(
    async (resume: boolean) => {
      const audio = active();
      const { current, playId } = stateRef.current;
      if (!audio || !current) return false;
      const position = audio.currentTime;
      try {
        const fresh = await streamingSource(current.id);
        if (stateRef.current.playId !== playId) return false;
        source.current?.release?.();
        source.current = fresh;
        if (fresh.local !== stateRef.current.local) dispatch({ type: 'source-ready', playId: playId!, transcript: fresh.transcript, local: fresh.local });
        audio.src = fresh.url;
        audio.playbackRate = stateRef.current.rate;
        audio.currentTime = position;
        if (resume) await audio.play();
        return true;
      } catch (error) {
        fail(error instanceof ApiError ? error.message : MESSAGES.player.playbackFailed, error);
        return false;
      }
    },
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [fail],
  );

  const urlExpired = () => {
    const expiresAt = source.current?.expiresAt;
    return expiresAt != null && Date.now() >= expiresAt - AUDIO.urlRefreshMarginMs;
  };

  const play = useCallback(() => {
    const audio = active();
    if (!audio || !stateRef.current.current) return;
    if (stateRef.current.status === 'error' || !audio.hasAttribute('src')) {
      const { current, queue } = stateRef.current;
      return void start(current, queue);
    }
    if (urlExpired()) return void refreshUrl(true);
    audio.play().catch((error: unknown) => {
      if (!(error instanceof DOMException && error.name === 'AbortError')) fail(MESSAGES.player.playbackFailed, error);
    });
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [start, refreshUrl, fail]);

  const pause = useCallback(() => active()?.pause(), []);

  const seekTo = useCallback((seconds: number) => {
    const audio = active();
    if (!audio || !stateRef.current.current) return;
    audio.currentTime = seconds;
    dispatch({ type: 'time', currentTime: seconds, duration: Number.isFinite(audio.duration) ? audio.duration : stateRef.current.duration });
  }, []);

  const api = useMemo<PlayerApi>(() => {
    const duration = () => {
      const d = active()?.duration;
      return d && Number.isFinite(d) ? d : stateRef.current.duration;
    };
    return {
      ...state,
      choose(meditation, queue = [meditation]) {
        const { current, status } = stateRef.current;
        if (current?.id === meditation.id && status !== 'error') {
          if (status === 'playing') return pause();
          if (status === 'paused') return play();
          if (status === 'loading') return;
        }
        void start(meditation, queue);
      },
      toggle() {
        const audio = active();
        if (!audio || !stateRef.current.current) return;
        if (stateRef.current.status === 'playing') pause();
        else play();
      },
      seekToPercent(percent) {
        seekTo(percentToTime(percent, duration()));
      },
      seekBy(seconds) {
        const audio = active();
        if (!audio) return;
        seekTo(skipTarget(audio.currentTime, duration(), seconds));
      },
      previous() {
        const { previous } = neighbours(stateRef.current);
        if (previous) void start(previous, stateRef.current.queue);
      },
      next() {
        const { next } = neighbours(stateRef.current);
        if (next) void start(next, stateRef.current.queue);
      },
      close() {
        stopAll();
        dispatch({ type: 'close' });
      },
      expand: () => dispatch({ type: 'expand' }),
      minimise: () => dispatch({ type: 'minimise' }),
      setRate(rate) {
        dispatch({ type: 'rate', rate });
      },
      setSleepTimer(minutes) {
        dispatch({ type: 'sleep', at: minutes ? Date.now() + minutes * 60_000 : null });
      },
    };
  }, [state, start, play, pause, seekTo, stopAll]);

  // Playback speed applies to whichever element plays and is remembered on this device.
  useEffect(() => {
    for (const ref of elements) if (ref.current) ref.current.playbackRate = state.rate;
    try {
      localStorage.setItem(STORAGE_KEYS.playerPreferences, JSON.stringify({ rate: state.rate }));
    } catch {
      /* storage full or blocked: the choice still applies for this visit */
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [state.rate]);

  // Sleep timer: fade out gently, then pause.
  useEffect(() => {
    if (state.sleepAt === null) return;
    const timer = setTimeout(
      () => {
        const audio = active();
        dispatch({ type: 'sleep', at: null });
        if (!audio || audio.paused) return;
        const running = runFade(fadeOutSchedule(), (step) => (audio.volume = clampVolume(step.outgoing)));
        fade.current = running;
        void running.done.then(() => {
          audio.pause();
          audio.volume = 1;
        });
      },
      Math.max(0, state.sleepAt - Date.now()),
    );
    return () => clearTimeout(timer);
  }, [state.sleepAt]);

  // The completion overlay stays for the spec's 3 seconds.
  useEffect(() => {
    if (!state.completed) return;
    const timer = setTimeout(() => dispatch({ type: 'dismiss-completion' }), AUDIO.completionOverlayMs);
    return () => clearTimeout(timer);
  }, [state.completed]);

  // Sessions completed while offline (or signed out mid-play) are sent when possible.
  const flush = useCallback(() => {
    if (!userId) return;
    void flushSessions(userId, sendSession).then((delivered) => {
      if (delivered > 0) void queryClient.invalidateQueries({ queryKey: PRACTICE_QUERY_KEY });
    });
  }, [userId, queryClient]);
  useEffect(() => {
    flush();
    window.addEventListener('online', flush);
    return () => window.removeEventListener('online', flush);
  }, [flush]);

  const onEnded = () => {
    const { current, playId } = stateRef.current;
    clearTimeout(loadTimer.current);
    dispatch({ type: 'ended' });
    releaseSource();
    if (!current || !playId || !userId) return;
    // Written to the device first, so a lost connection cannot lose the session.
    enqueueSession({ id: playId, meditationId: current.id, completedAt: new Date().toISOString(), userId });
    flush();
  };

  const onError = (audio: HTMLAudioElement) => {
    if (!stateRef.current.current || !audio.hasAttribute('src')) return;
    // A 403 from an expired signature surfaces as a media error: refresh the link once. An
    // unreadable offline copy falls back to the stream the same way (spec).
    if (!refreshing.current) {
      refreshing.current = true;
      if (source.current?.local) toast.error(MESSAGES.player.offlinePlaybackFailed, { description: MESSAGES.player.offlinePlaybackFailedBody });
      const wasPlaying = stateRef.current.status === 'playing' || stateRef.current.status === 'loading';
      void refreshUrl(wasPlaying);
      return;
    }
    fail(MESSAGES.player.playbackFailed, audio.error);
  };

  useOfflineEntitlementSync();
  useMediaSession(api);
  usePlayerKeyboard(api);

  useEffect(() => () => stopAll(), [stopAll]);

  return (
    <PlayerContext.Provider value={api}>
      {children}
      {elements.map((ref, index) => {
        const isActive = index === activeIndex;
        const mine = (e: { currentTarget: HTMLAudioElement }) => e.currentTarget === active();
        return (
          <audio
            key={index}
            ref={ref}
            preload="auto"
            data-testid={isActive ? 'player-audio' : 'player-audio-outgoing'}
            onPlaying={(e) => {
              if (!mine(e)) return;
              clearTimeout(loadTimer.current);
              refreshing.current = false;
              dispatch({ type: 'playing' });
            }}
            onPause={(e) => mine(e) && dispatch({ type: 'paused' })}
            onWaiting={(e) => mine(e) && dispatch({ type: 'waiting' })}
            onStalled={(e) => mine(e) && dispatch({ type: 'waiting' })}
            onTimeUpdate={(e) => {
              if (!mine(e)) return;
              const audio = e.currentTarget;
              dispatch({ type: 'time', currentTime: audio.currentTime, duration: Number.isFinite(audio.duration) ? audio.duration : 0 });
            }}
            onLoadedMetadata={(e) => {
              if (!mine(e)) return;
              const audio = e.currentTarget;
              audio.playbackRate = stateRef.current.rate;
              dispatch({ type: 'time', currentTime: audio.currentTime, duration: Number.isFinite(audio.duration) ? audio.duration : 0 });
            }}
            onEnded={(e) => mine(e) && onEnded()}
            onError={(e) => mine(e) && onError(e.currentTarget)}
          />
        );
      })}
    </PlayerContext.Provider>
  );
}
