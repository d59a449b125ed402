/**
 * The player machine's state held outside React, so each reader subscribes to the slice it shows.
 * Playback progress changes ~4×/s while audio plays; it is a slice of its own, and the rest of
 * the state (the "view") keeps its identity when only progress moves, so the header, footer and
 * page do not re-render on every `timeupdate` (read with useSyncExternalStore).
 */
import { AUDIO, STORAGE_KEYS } from '#shared/constants.ts';
import { initialPlayerState, playerReducer, type PlayerAction, type PlayerState } from '#web/features/player/player-machine.ts';
import { readStored, writeStored } from '#web/lib/storage.ts';

/** Everything but the playback position. */
export type PlayerView = Omit<PlayerState, 'currentTime' | 'duration'>;
export type PlayerProgress = Pick<PlayerState, 'currentTime' | 'duration'>;

export type PlayerStore = {
  getState: () => PlayerState;
  getView: () => PlayerView;
  getProgress: () => PlayerProgress;
  dispatch: (action: PlayerAction) => void;
  subscribe: (listener: () => void) => () => void;
};

function viewOf(state: PlayerState): PlayerView {
  const { currentTime: _currentTime, duration: _duration, ...view } = state;
  return view;
}

function sameView(a: PlayerView, b: PlayerView): boolean {
  return (Object.keys(a) as (keyof PlayerView)[]).every((key) => Object.is(a[key], b[key]));
}

export function createPlayerStore(initial: PlayerState): PlayerStore {
  let state = initial;
  let view = viewOf(initial);
  let progress: PlayerProgress = { currentTime: initial.currentTime, duration: initial.duration };
  const listeners = new Set<() => void>();
  return {
    getState: () => state,
    getView: () => view,
    getProgress: () => progress,
    dispatch(action) {
      const next = playerReducer(state, action);
      if (next === state) return;
      state = next;
      const nextView = viewOf(next);
      if (!sameView(view, nextView)) view = nextView;
      if (progress.currentTime !== next.currentTime || progress.duration !== next.duration) progress = { currentTime: next.currentTime, duration: next.duration };
      for (const listener of listeners) listener();
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

/** The playback speed remembered on this device; anything unexpected in storage reads as 1×. */
function readSavedRate(): number {
  try {
    const saved: unknown = JSON.parse(readStored(STORAGE_KEYS.playerPreferences) ?? '{}');
    const rate = typeof saved === 'object' && saved !== null && 'rate' in saved ? saved.rate : undefined;
    return typeof rate === 'number' && (AUDIO.playbackRates as readonly number[]).includes(rate) ? rate : 1;
  } catch {
    // Unparseable or blocked storage: the default speed.
    return 1;
  }
}

export function saveRate(rate: number): void {
  // Storage full or blocked: the choice still applies for this visit.
  writeStored(STORAGE_KEYS.playerPreferences, JSON.stringify({ rate }));
}

export const initialStoreState = (): PlayerState => ({ ...initialPlayerState, rate: readSavedRate() });
