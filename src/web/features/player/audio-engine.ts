/**
 * The two <audio> elements driven by the player machine. Two elements let a new track crossfade in
 * over the old one; the "active" one is the track the machine describes, and events from the other
 * (fading out) are ignored. Playback URLs come from the server's entitlement endpoint; nothing here
 * decides who may listen. Plain object, not a hook: its timers, abort controllers and current source
 * are mutable bookkeeping that React must never render from.
 */
import { toast } from '#web/lib/toast.ts';
import { AUDIO } from '#shared/constants.ts';
import type { MeditationCard } from '#shared/contracts/catalogue.ts';
import { PLAYER_MESSAGES } from '#shared/player-messages.ts';
import { ApiError } from '#web/lib/api.ts';
import { clampVolume, crossfadeSchedule, fadeInSchedule, fadeOutSchedule, runFade } from '#web/features/player/fades.ts';
import { resolveSource, streamingSource, type PlaybackSource } from '#web/features/player/playback-source.ts';
import type { PlayerStore } from '#web/features/player/player-store.ts';
import { createListeningMeter, type Listened, type ListeningMeter } from '#web/features/player/listening-meter.ts';
import { coveredSeconds, isCompleteListen, PARTIAL_SESSION_MIN_SECONDS } from '#shared/listening.ts';

/**
 * A play that is over (it ended, or was stopped after real listening): the practice session to
 * record, with what was actually heard. The server decides whether it was complete.
 */
export type FinishedPlay = { playId: string; meditationId: string; listened: Listened };

type Slot = 0 | 1;

function stopElement(audio: HTMLAudioElement | null): void {
  if (!audio) return;
  audio.pause();
  if (audio.hasAttribute('src')) {
    audio.removeAttribute('src');
    audio.load();
  }
}

const isDomError = (error: unknown, name: string) => error instanceof DOMException && error.name === name;
const finiteDuration = (audio: HTMLAudioElement, fallback: number) => (Number.isFinite(audio.duration) ? audio.duration : fallback);

export type AudioEngine = ReturnType<typeof createAudioEngine>;

export function createAudioEngine(store: PlayerStore) {
  const { dispatch, getState } = store;
  const elements: [HTMLAudioElement | null, HTMLAudioElement | null] = [null, null];
  let activeSlot: Slot = 0;
  /**
   * The play whose audio the active element holds. Between a new play's start and its source
   * arriving, the active element still holds the previous track (crossfading out, or paused): its
   * events and its clock describe that track, not the one the machine now shows.
   */
  let ownerPlayId: string | null = null;
  /** A seek asked for while the new track was still loading, applied when its source is set. */
  let pendingSeek: number | null = null;
  let userId: string | null = null;
  let source: PlaybackSource | null = null;
  let fetchAbort: AbortController | null = null;
  let fade: { cancel(): void } | null = null;
  let loadTimer: ReturnType<typeof setTimeout> | undefined;
  /** A signed URL is refreshed at most once per failure, so a broken file cannot loop. */
  let refreshing = false;
  const slotListeners = new Set<() => void>();
  const finishListeners = new Set<(play: FinishedPlay) => void>();
  /** What the current play has listened to so far (issue 20, item 3). */
  let metering: { playId: string; meditationId: string; meter: ListeningMeter } | null = null;

  /**
   * Hands the current play's listening to the session recorder, once. A play stopped before its end
   * (closed, or another track chosen) is a session only after real listening, not a sample tap.
   */
  const finishPlay = (ended: boolean) => {
    const finished = metering;
    metering = null;
    if (!finished) return;
    const listened = finished.meter.snapshot();
    if (!ended && listened.seconds < PARTIAL_SESSION_MIN_SECONDS) return;
    for (const listener of finishListeners) listener({ playId: finished.playId, meditationId: finished.meditationId, listened });
  };

  const active = () => elements[activeSlot];

  const takePendingSeek = (): number | null => {
    const seek = pendingSeek;
    pendingSeek = null;
    return seek;
  };

  const setActiveSlot = (slot: Slot) => {
    activeSlot = slot;
    for (const listener of slotListeners) listener();
  };

  const fail = (message: string, detail?: unknown) => {
    clearTimeout(loadTimer);
    console.error('player:', message, detail ?? '');
    dispatch({ type: 'error', message });
  };

  const releaseSource = () => {
    source?.release?.();
    source = null;
  };

  const urlExpired = () => {
    const expiresAt = source?.expiresAt;
    return expiresAt != null && Date.now() >= expiresAt - AUDIO.urlRefreshMarginMs;
  };

  function stopAll(): void {
    finishPlay(false);
    fade?.cancel();
    fetchAbort?.abort();
    clearTimeout(loadTimer);
    stopElement(elements[0]);
    stopElement(elements[1]);
    releaseSource();
    ownerPlayId = null;
    pendingSeek = null;
  }

  /** Fetches the source, then plays it on the free element (crossfading if a track is playing) or the same one. */
  async function start(meditation: MeditationCard, queue: readonly MeditationCard[]): Promise<void> {
    const outgoing = active();
    const crossfade = Boolean(outgoing && !outgoing.paused && outgoing.hasAttribute('src'));
    const playId = crypto.randomUUID();
    fade?.cancel();
    fetchAbort?.abort();
    clearTimeout(loadTimer);
    const controller = new AbortController();
    fetchAbort = controller;
    pendingSeek = null;
    finishPlay(false);
    metering = { playId, meditationId: meditation.id, meter: createListeningMeter() };
    dispatch({ type: 'start', meditation, queue, playId });

    // Spec 'Player start': a short delay lets the sheet open before the audio starts.
    await new Promise((resolve) => setTimeout(resolve, AUDIO.startDelayMs));
    let next: PlaybackSource;
    try {
      next = await resolveSource({
        meditationId: meditation.id,
        userId,
        signal: controller.signal,
        onLocalFailure: (error) => {
          console.warn('player: offline copy unusable, streaming instead', error);
          toast.error(PLAYER_MESSAGES.offlinePlaybackFailed, { description: PLAYER_MESSAGES.offlinePlaybackFailedBody });
        },
      });
    } catch (error) {
      if (controller.signal.aborted) return;
      fail(error instanceof ApiError ? error.message : PLAYER_MESSAGES.playbackFailed, error);
      return;
    }
    if (controller.signal.aborted || getState().playId !== playId) {
      next.release?.();
      return;
    }

    const previousSource = source;
    source = next;
    refreshing = false;
    dispatch({ type: 'source-ready', playId, transcript: next.transcript, local: next.local });

    const incomingSlot: Slot = crossfade ? (activeSlot === 0 ? 1 : 0) : activeSlot;
    const incoming = elements[incomingSlot];
    // The elements are mounted with the provider; without them there is nothing to play on.
    if (!incoming) return;
    setActiveSlot(incomingSlot);
    if (!crossfade) stopElement(outgoing === incoming ? null : outgoing);

    incoming.volume = 0;
    incoming.src = next.url;
    incoming.playbackRate = getState().rate;
    ownerPlayId = playId;
    const seek = takePendingSeek();
    // Before metadata this sets the start position; the browser seeks there once it can.
    if (seek !== null) incoming.currentTime = seek;
    loadTimer = setTimeout(() => {
      if (getState().playId === playId && getState().status === 'loading') fail(PLAYER_MESSAGES.loadTimeout);
    }, AUDIO.loadTimeoutMs);
    try {
      await incoming.play();
    } catch (error) {
      if (isDomError(error, 'AbortError')) return;
      // NotAllowedError: the browser refused autoplay; the user can press play.
      if (isDomError(error, 'NotAllowedError')) {
        clearTimeout(loadTimer);
        incoming.volume = 1;
        dispatch({ type: 'paused' });
        return;
      }
      fail(PLAYER_MESSAGES.playbackFailed, error);
      return;
    }
    const running = runFade(crossfade ? crossfadeSchedule() : fadeInSchedule(), (step) => {
      incoming.volume = clampVolume(step.incoming);
      if (crossfade && outgoing) outgoing.volume = clampVolume(step.outgoing);
    });
    fade = running;
    await running.done;
    incoming.volume = 1;
    if (crossfade && outgoing) {
      stopElement(outgoing);
      outgoing.volume = 1;
      previousSource?.release?.();
    }
  }

  /** Swaps in a fresh signed URL at the same position (expired links, or a 403 mid-stream). */
  async function refreshUrl(resume: boolean): Promise<boolean> {
    const audio = active();
    const { current, playId } = getState();
    if (!audio || !current || !playId) return false;
    const position = audio.currentTime;
    try {
      const fresh = await streamingSource(current.id);
      if (getState().playId !== playId) return false;
      source?.release?.();
      source = fresh;
      if (fresh.local !== getState().local) dispatch({ type: 'source-ready', playId, transcript: fresh.transcript, local: fresh.local });
      metering?.meter.interrupt();
      audio.src = fresh.url;
      audio.playbackRate = getState().rate;
      audio.currentTime = position;
      if (resume) await audio.play();
      return true;
    } catch (error) {
      fail(error instanceof ApiError ? error.message : PLAYER_MESSAGES.playbackFailed, error);
      return false;
    }
  }

  /** Resumes the loaded track; after an error or a stop it starts the track again, and an expired link is renewed first. */
  function play(): void {
    const audio = active();
    const { current, queue, status } = getState();
    if (!audio || !current) return;
    if (status === 'error' || !audio.hasAttribute('src')) {
      void start(current, queue);
      return;
    }
    if (urlExpired()) {
      void refreshUrl(true);
      return;
    }
    audio.play().catch((error: unknown) => {
      if (!isDomError(error, 'AbortError')) fail(PLAYER_MESSAGES.playbackFailed, error);
    });
  }

  /** Whether the active element is playing the machine's current play (not the track before it). */
  const holdsCurrentPlay = () => ownerPlayId !== null && ownerPlayId === getState().playId;

  function seekTo(seconds: number): void {
    const audio = active();
    if (!audio || !getState().current) return;
    // A seek is not listening: the meter starts a new stretch where the element lands.
    metering?.meter.interrupt();
    if (holdsCurrentPlay()) audio.currentTime = seconds;
    else pendingSeek = seconds;
    dispatch({ type: 'time', currentTime: seconds, duration: holdsCurrentPlay() ? finiteDuration(audio, getState().duration) : getState().duration });
  }

  /** The sleep timer's end: fade out gently, then pause. */
  function fadeOutAndPause(): void {
    const audio = active();
    if (!audio || audio.paused) return;
    const running = runFade(fadeOutSchedule(), (step) => (audio.volume = clampVolume(step.outgoing)));
    fade = running;
    void running.done.then(() => {
      audio.pause();
      audio.volume = 1;
    });
  }

  /**
   * Events from the outgoing element of a crossfade, or from the previous track while the next one
   * loads, describe no play the machine knows: that track ending must not complete the new one.
   */
  const mine = (audio: HTMLAudioElement) => audio === active() && holdsCurrentPlay();

  /** The element's position into the current play's meter, while it plays (or as it ends). */
  const measure = (audio: HTMLAudioElement, ending = false) => {
    if (metering?.playId !== getState().playId || (audio.paused && !ending)) return;
    metering.meter.playing(audio.currentTime, performance.now(), audio.playbackRate);
  };

  const events = {
    playing: (audio: HTMLAudioElement) => {
      if (!mine(audio)) return;
      clearTimeout(loadTimer);
      refreshing = false;
      dispatch({ type: 'playing' });
    },
    pause: (audio: HTMLAudioElement) => {
      if (!mine(audio)) return;
      metering?.meter.interrupt();
      dispatch({ type: 'paused' });
    },
    /** Any seek, whoever asked for it (the slider, the lock screen, the element's own controls). */
    seeking: (audio: HTMLAudioElement) => {
      if (mine(audio)) metering?.meter.interrupt();
    },
    waiting: (audio: HTMLAudioElement) => {
      if (mine(audio)) dispatch({ type: 'waiting' });
    },
    timeUpdate: (audio: HTMLAudioElement) => {
      if (!mine(audio)) return;
      measure(audio);
      dispatch({ type: 'time', currentTime: audio.currentTime, duration: finiteDuration(audio, 0) });
    },
    loadedMetadata: (audio: HTMLAudioElement) => {
      if (!mine(audio)) return;
      audio.playbackRate = getState().rate;
      dispatch({ type: 'time', currentTime: audio.currentTime, duration: finiteDuration(audio, 0) });
    },
    ended: (audio: HTMLAudioElement) => {
      if (!mine(audio)) return;
      const { current, playId } = getState();
      clearTimeout(loadTimer);
      // The last stretch, from the latest timeupdate to the end.
      measure(audio, true);
      const heard = metering?.playId === playId ? metering.meter.snapshot() : null;
      const duration = finiteDuration(audio, getState().duration);
      dispatch({ type: 'ended', complete: heard !== null && isCompleteListen(coveredSeconds(heard.ranges, duration), duration) });
      releaseSource();
      if (!current || !playId || metering?.playId !== playId) return;
      finishPlay(true);
    },
    error: (audio: HTMLAudioElement) => {
      if (!mine(audio) || !getState().current || !audio.hasAttribute('src')) return;
      // A 403 from an expired signature surfaces as a media error: refresh the link once. An
      // unreadable offline copy falls back to the stream the same way (spec).
      if (!refreshing) {
        refreshing = true;
        if (source?.local) toast.error(PLAYER_MESSAGES.offlinePlaybackFailed, { description: PLAYER_MESSAGES.offlinePlaybackFailedBody });
        const { status } = getState();
        void refreshUrl(status === 'playing' || status === 'loading');
        return;
      }
      fail(PLAYER_MESSAGES.playbackFailed, audio.error);
    },
  };

  return {
    start,
    play,
    pause: () => active()?.pause(),
    seekTo,
    stopAll,
    fadeOutAndPause,
    events,
    /** The active element's duration when it knows it, else the machine's (the card's) duration. */
    duration: (): number => {
      const d = holdsCurrentPlay() ? active()?.duration : undefined;
      return d && Number.isFinite(d) ? d : getState().duration;
    },
    currentTime: (): number | null => (holdsCurrentPlay() ? (active()?.currentTime ?? null) : (pendingSeek ?? 0)),
    hasElement: () => active() !== null,
    /** Both elements, for the background sound's mixer to route through Web Audio (soundscape-mixer.ts). */
    elements: (): readonly (HTMLAudioElement | null)[] => elements,
    /** Playback speed applies to whichever element plays. */
    applyRate: (rate: number): void => {
      for (const audio of elements) if (audio) audio.playbackRate = rate;
    },
    setUserId: (id: string | null): void => {
      userId = id;
    },
    attach: (slot: Slot, audio: HTMLAudioElement | null): void => {
      elements[slot] = audio;
    },
    getActiveSlot: (): Slot => activeSlot,
    subscribeActiveSlot: (listener: () => void): (() => void) => {
      slotListeners.add(listener);
      return () => slotListeners.delete(listener);
    },
    onFinished: (listener: (play: FinishedPlay) => void): (() => void) => {
      finishListeners.add(listener);
      return () => finishListeners.delete(listener);
    },
  };
}
