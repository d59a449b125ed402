/**
 * Volume ramps from the spec: a fade-in from 0 in 10 steps of 25 ms when nothing plays, and a
 * crossfade in 20 steps over 250 ms when switching tracks. Schedules are pure; `runFade` plays one
 * with timers and can be cancelled (a new choice interrupts a running fade).
 */
import { AUDIO } from '#shared/constants.ts';

export type FadeStep = { atMs: number; incoming: number; outgoing: number };

export function fadeInSchedule(): FadeStep[] {
  const { steps, stepMs } = AUDIO.fadeIn;
  return Array.from({ length: steps }, (_, i) => ({ atMs: (i + 1) * stepMs, incoming: (i + 1) / steps, outgoing: 0 }));
}

export function crossfadeSchedule(): FadeStep[] {
  const { steps, totalMs } = AUDIO.crossfade;
  return Array.from({ length: steps }, (_, i) => ({ atMs: ((i + 1) * totalMs) / steps, incoming: (i + 1) / steps, outgoing: 1 - (i + 1) / steps }));
}

/** A fade-out (sleep timer): the crossfade's outgoing half. */
export function fadeOutSchedule(): FadeStep[] {
  return crossfadeSchedule().map((s) => ({ ...s, incoming: 0 }));
}

/** Applies each step at its time; resolves after the last. Returns a cancel function too. */
export function runFade(schedule: FadeStep[], apply: (step: FadeStep) => void): { done: Promise<void>; cancel(): void } {
  const timers: ReturnType<typeof setTimeout>[] = [];
  let settle!: () => void;
  const done = new Promise<void>((resolve) => (settle = resolve));
  schedule.forEach((step, i) => {
    timers.push(
      setTimeout(() => {
        apply(step);
        if (i === schedule.length - 1) settle();
      }, step.atMs),
    );
  });
  if (schedule.length === 0) settle();
  return {
    done,
    cancel() {
      timers.forEach(clearTimeout);
      settle();
    },
  };
}

/** Clamp into the range HTMLMediaElement.volume accepts (rounding can stray past 1). */
export function clampVolume(v: number): number {
  return Math.min(1, Math.max(0, v));
}
