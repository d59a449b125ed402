/** What the listener can ask of the player (buttons, keys, the lock screen), as stable functions. */
import type { MeditationCard } from '#shared/contracts/catalogue.ts';
import type { AudioEngine } from '#web/features/player/audio-engine.ts';
import { neighbours, percentToTime, skipTarget } from '#web/features/player/player-machine.ts';
import type { PlayerStore } from '#web/features/player/player-store.ts';
import { loadPositions } from '#web/lazy-chunks.ts';

export type PlayerActions = {
  /** Spec: choosing a track plays it; the same track while playing pauses, while paused resumes. */
  choose: (meditation: MeditationCard, queue?: readonly MeditationCard[]) => void;
  toggle: () => void;
  seekToPercent: (percent: number) => void;
  seekBy: (seconds: number) => void;
  previous: () => void;
  next: () => void;
  close: () => void;
  expand: () => void;
  minimise: () => void;
  setRate: (rate: number) => void;
  /** The summary after a play (issue 17, item 5): play what came next in its list, or put it away. */
  playUpNext: () => void;
  dismissSummary: () => void;
  /** Minutes until playback fades out and pauses; null cancels. */
  setSleepTimer: (minutes: number | null) => void;
  /** "Continue from 7:32" on a card: plays the track from where it was left off (issue 20, item 2). */
  resume: (meditation: MeditationCard, seconds: number, queue?: readonly MeditationCard[]) => void;
  /** "Continue from 7:32" in the player: moves this play to where the track was left off. */
  acceptResume: () => void;
};

export function createPlayerActions(store: PlayerStore, engine: AudioEngine): PlayerActions {
  const { dispatch, getState } = store;
  return {
    choose(meditation, queue = [meditation]) {
      const { current, status } = getState();
      if (current?.id === meditation.id && status !== 'error') {
        if (status === 'playing') {
          engine.pause();
          return;
        }
        if (status === 'paused') {
          engine.play();
          return;
        }
        if (status === 'loading') return;
      }
      void engine.start(meditation, queue);
      // Started from the beginning: where it was left off is offered in the player.
      const { playId } = getState();
      // (The positions' code is not in the first download; it is there by the time anyone presses play.)
      if (playId) {
        void loadPositions().then(({ getPositions, resumePoint }) => {
          if (getState().playId === playId) dispatch({ type: 'offer-resume', playId, seconds: resumePoint(getPositions(), meditation.id, meditation.durationSeconds) });
        });
      }
    },
    resume(meditation, seconds, queue = [meditation]) {
      void engine.start(meditation, queue);
      // The track is loading: the engine applies the seek when its source arrives.
      engine.seekTo(seconds);
    },
    acceptResume() {
      const { resumeOffer, playId } = getState();
      if (!resumeOffer || !playId) return;
      engine.seekTo(resumeOffer.seconds);
      dispatch({ type: 'offer-resume', playId, seconds: null });
    },
    toggle() {
      if (!engine.hasElement() || !getState().current) return;
      if (getState().status === 'playing') engine.pause();
      else engine.play();
    },
    seekToPercent(percent) {
      engine.seekTo(percentToTime(percent, engine.duration()));
    },
    seekBy(seconds) {
      const position = engine.currentTime();
      if (position === null) return;
      engine.seekTo(skipTarget(position, engine.duration(), seconds));
    },
    playUpNext() {
      const { summary } = getState();
      dispatch({ type: 'dismiss-summary' });
      if (summary?.next) void engine.start(summary.next, summary.queue);
    },
    dismissSummary() {
      dispatch({ type: 'dismiss-summary' });
    },
    previous() {
      const { previous } = neighbours(getState());
      if (previous) void engine.start(previous, getState().queue);
    },
    next() {
      const { next } = neighbours(getState());
      if (next) void engine.start(next, getState().queue);
    },
    close() {
      engine.stopAll();
      dispatch({ type: 'close' });
    },
    expand: () => dispatch({ type: 'expand' }),
    minimise: () => dispatch({ type: 'minimise' }),
    setRate: (rate) => dispatch({ type: 'rate', rate }),
    setSleepTimer: (minutes) => dispatch({ type: 'sleep', at: minutes ? Date.now() + minutes * 60_000 : null }),
  };
}
