/**
 * The global player as a pure state machine (spec 'Player states'): the provider turns audio
 * element events and user intents into actions, and renders what this returns. No timers, no
 * DOM, no network here, so every transition is unit-tested.
 */
import type { MeditationCard } from '#shared/contracts/catalogue.ts';
import { AUDIO } from '#shared/constants.ts';

type PlayerStatus = 'idle' | 'loading' | 'playing' | 'paused' | 'error';

export type PlayerState = {
  current: MeditationCard | null;
  /** The list the track was started from (its category), for previous/next. */
  queue: readonly MeditationCard[];
  status: PlayerStatus;
  currentTime: number;
  duration: number;
  error: string | null;
  expanded: boolean;
  /** The device's id for this play: a completed session is recorded once per play id. */
  playId: string | null;
  /** Set when a play ends; the overlay shows while it is set. */
  completed: Finished | null;
  /** After the overlay: the calm summary of the play that ended (issue 17, item 5), until dismissed. */
  summary: Finished | null;
  transcript: string | null;
  /** Whether the audio is coming from an offline copy on this device. */
  local: boolean;
  rate: number;
  /** Epoch ms when the sleep timer pauses playback. */
  sleepAt: number | null;
  /** Where this track was left off last time, offered as "Continue from 7:32" while this play is before it (issue 20, item 2). */
  resumeOffer: { playId: string; seconds: number } | null;
};

/** A play that ended: what it was, and what would come next in its list. */
type Finished = { title: string; playId: string; meditationId: string; next: MeditationCard | null; queue: readonly MeditationCard[] };

export type PlayerAction =
  | { type: 'start'; meditation: MeditationCard; queue: readonly MeditationCard[]; playId: string }
  | { type: 'source-ready'; playId: string; transcript: string | null; local: boolean }
  | { type: 'playing' }
  | { type: 'paused' }
  | { type: 'waiting' }
  | { type: 'time'; currentTime: number; duration: number }
  /** `complete`: enough of the track was heard to count (shared/listening.ts); a partial end gets no 'Meditation Complete!'. */
  | { type: 'ended'; complete: boolean }
  | { type: 'dismiss-completion' }
  | { type: 'dismiss-summary' }
  | { type: 'error'; message: string }
  | { type: 'close' }
  | { type: 'expand' }
  | { type: 'minimise' }
  | { type: 'rate'; rate: number }
  | { type: 'sleep'; at: number | null }
  | { type: 'offer-resume'; playId: string; seconds: number | null };

export const initialPlayerState: PlayerState = {
  current: null,
  queue: [],
  status: 'idle',
  currentTime: 0,
  duration: 0,
  error: null,
  expanded: false,
  playId: null,
  completed: null,
  summary: null,
  transcript: null,
  local: false,
  rate: 1,
  sleepAt: null,
  resumeOffer: null,
};

export function playerReducer(state: PlayerState, action: PlayerAction): PlayerState {
  switch (action.type) {
    case 'start':
      // Spec 'Player start': autoplay on, expanded; a new play gets a new id.
      return {
        ...state,
        current: action.meditation,
        queue: action.queue,
        status: 'loading',
        currentTime: 0,
        duration: action.meditation.durationSeconds ?? 0,
        error: null,
        expanded: true,
        playId: action.playId,
        transcript: null,
        local: false,
        summary: null,
        resumeOffer: null,
      };
    case 'source-ready':
      if (action.playId !== state.playId) return state;
      return { ...state, transcript: action.transcript, local: action.local };
    case 'playing':
      if (!state.current) return state;
      return { ...state, status: 'playing', error: null };
    case 'paused':
      if (!state.current || state.status === 'error') return state;
      return { ...state, status: 'paused' };
    case 'waiting':
      // Spec: error, stall or wait sets not-playing.
      if (!state.current || state.status !== 'playing') return state;
      return { ...state, status: 'loading' };
    case 'time':
      if (!state.current) return state;
      return { ...state, currentTime: action.currentTime, duration: action.duration > 0 ? action.duration : state.duration };
    case 'ended': {
      // Spec: clears the current track and shows the overlay. A second 'ended' for the same play does nothing.
      // A track that ended without being heard (a seek to the end) is not congratulated: the calm summary comes straight away.
      if (!state.current || !state.playId) return state;
      const finished = { title: state.current.title, playId: state.playId, meditationId: state.current.id, next: neighbours(state).next, queue: state.queue };
      return { ...initialPlayerState, rate: state.rate, ...(action.complete ? { completed: finished } : { summary: finished }) };
    }
    case 'dismiss-completion':
      // The spec's overlay has had its 3 s; the summary takes its place.
      return { ...state, completed: null, summary: state.completed ?? state.summary };
    case 'dismiss-summary':
      return { ...state, summary: null };
    case 'error':
      if (!state.current) return state;
      return { ...state, status: 'error', error: action.message };
    case 'close':
      return { ...initialPlayerState, rate: state.rate, completed: state.completed, summary: state.summary };
    case 'expand':
      return state.current ? { ...state, expanded: true } : state;
    case 'minimise':
      return { ...state, expanded: false };
    case 'rate':
      return (AUDIO.playbackRates as readonly number[]).includes(action.rate) ? { ...state, rate: action.rate } : state;
    case 'sleep':
      return { ...state, sleepAt: action.at };
    case 'offer-resume':
      if (action.playId !== state.playId) return state;
      return { ...state, resumeOffer: action.seconds === null ? null : { playId: action.playId, seconds: action.seconds } };
  }
}

/** Previous and next in the category's list; each only when it exists (spec). */
export function neighbours(state: Pick<PlayerState, 'current' | 'queue'>): { previous: MeditationCard | null; next: MeditationCard | null } {
  const { current } = state;
  if (!current) return { previous: null, next: null };
  const index = state.queue.findIndex((m) => m.id === current.id);
  if (index < 0) return { previous: null, next: null };
  return { previous: state.queue[index - 1] ?? null, next: state.queue[index + 1] ?? null };
}

export function progressPercent(state: Pick<PlayerState, 'currentTime' | 'duration'>): number {
  if (!(state.duration > 0)) return 0;
  return Math.min(100, Math.max(0, (state.currentTime / state.duration) * 100));
}

/** Rewind/skip target, clamped to the track (spec: 15 s, clamped). */
export function skipTarget(currentTime: number, duration: number, deltaSeconds: number): number {
  const upper = Number.isFinite(duration) && duration > 0 ? duration : Math.max(0, currentTime + deltaSeconds);
  return Math.min(upper, Math.max(0, currentTime + deltaSeconds));
}

/** Slider 0–100 (step 0.1) to seconds, proportionally. */
export function percentToTime(percent: number, duration: number): number {
  if (!(duration > 0) || !Number.isFinite(percent)) return 0;
  return (Math.min(100, Math.max(0, percent)) / 100) * duration;
}
