/**
 * Spec 'Hidden diagnostics overlay': it opens after 5 rapid taps on the version label; the count
 * resets after 3 s without tapping. Pure, so the timing is tested without a DOM.
 */
import { DIAGNOSTICS } from '#shared/constants.ts';

export type TapState = { count: number; lastTapAt: number | null };

export const initialTaps: TapState = { count: 0, lastTapAt: null };

/** Registers a tap at `now`; `open` is true on the tap that completes the sequence (and the count restarts). */
export function registerTap(state: TapState, now: number): { state: TapState; open: boolean } {
  const continuing = state.lastTapAt !== null && now - state.lastTapAt < DIAGNOSTICS.tapResetMs;
  const count = (continuing ? state.count : 0) + 1;
  if (count >= DIAGNOSTICS.taps) return { state: initialTaps, open: true };
  return { state: { count, lastTapAt: now }, open: false };
}
