/**
 * Ducking the background sound while the voice speaks (issue 37, item 3): the rule, kept pure so it
 * is tested without audio. The voice's level is read a few times a second from an AnalyserNode on
 * the voice's bus (soundscape-mixer.ts); above a threshold the voice speaks and the bed drops at
 * once; it comes back only after the voice has been quiet for a while, so the bed does not pump
 * between words.
 */
import { SOUNDSCAPE } from '#shared/soundscapes.ts';

export type DuckState = { ducked: boolean; quietSince: number | null };

export const NOT_DUCKED: DuckState = { ducked: false, quietSince: null };

/** RMS level of one block of samples, in dBFS (-Infinity for silence). */
export function levelDb(samples: Float32Array): number {
  let sum = 0;
  for (const sample of samples) sum += sample * sample;
  return samples.length === 0 ? -Infinity : 10 * Math.log10(sum / samples.length);
}

/** The next state after reading `db` at `nowMs`. */
export function duckStep(state: DuckState, db: number, nowMs: number, { speakingDb, holdMs } = SOUNDSCAPE.duck): DuckState {
  if (db >= speakingDb) return state.ducked && state.quietSince === null ? state : { ducked: true, quietSince: null };
  if (!state.ducked) return state;
  if (state.quietSince === null) return { ducked: true, quietSince: nowMs };
  return nowMs - state.quietSince >= holdMs ? NOT_DUCKED : state;
}
