/**
 * The audio clock against the wall clock (decision 0038). Bells are scheduled on the audio clock,
 * which keeps time in a background tab; but an audio clock is only as good as what drives it: a
 * sound card's crystal parts from the wall by some parts per million, and a device without one (or
 * an overloaded audio thread) can lose a second in twenty minutes. Once a minute, which even a hidden
 * tab's throttled timers allow, the engine compares the two through `getOutputTimestamp()` (both
 * readings come from the browser at the same moment) and moves the bells still ahead by the
 * difference. Pure, so the arithmetic is tested without an AudioContext.
 */

/** One reading of both clocks: the audio clock in seconds, the wall (performance timeline) in milliseconds. */
export type ClockReading = { contextTime: number; performanceTime: number };

/** Below this, moving the bells would be busywork: no one hears a 20 ms difference. */
const DRIFT_TOLERANCE_SECONDS = 0.02;

/**
 * How many seconds the audio clock is behind the wall since `anchor` (negative: ahead). Readings
 * without a performance time (a context that has not produced output yet) tell nothing: null.
 */
export function audioLag(anchor: ClockReading, now: ClockReading): number | null {
  if (!(anchor.performanceTime > 0) || !(now.performanceTime > 0)) return null;
  const wall = (now.performanceTime - anchor.performanceTime) / 1000;
  const audio = now.contextTime - anchor.contextTime;
  return wall - audio;
}

/**
 * The shift to apply to what is still ahead, in audio seconds (subtracted from each planned audio
 * time), given the lag measured in this running stretch, the shift carried over from earlier
 * stretches (before a pause) and the shift already applied. Null when the schedule is close enough.
 */
export function nextShift({ lag, carried, applied }: { lag: number | null; carried: number; applied: number }): number | null {
  if (lag === null) return null;
  const wanted = carried + lag;
  return Math.abs(wanted - applied) < DRIFT_TOLERANCE_SECONDS ? null : wanted;
}
