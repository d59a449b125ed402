/**
 * Guided breathing (issue 37, item 1): the patterns offered, their lengths and words, and the
 * schedule of one exercise (every phase with its start and length). Shared: the page follows the
 * schedule, and the server checks a breathing session against the same schedule, so the length a
 * client claims is the one the pattern and length chosen really make.
 */
import { z } from 'zod';

export const BREATHING_PATTERN_IDS = ['box', '4-7-8', 'coherent', 'sigh'] as const;
export type BreathingPatternId = (typeof BREATHING_PATTERN_IDS)[number];

/** What one phase asks: the physiological sigh's second, short breath in is a phase of its own. */
export type BreathPhaseKind = 'in' | 'in-again' | 'hold' | 'out';

/** The words said (in the live region) and shown as each phase begins, as the issue words them. */
export const PHASE_WORDS: Record<BreathPhaseKind, string> = {
  in: 'Breathe in',
  'in-again': 'Breathe in again',
  hold: 'Hold',
  out: 'Breathe out',
};

type BreathingPattern = {
  label: string;
  /** A line under the name in the choices. */
  description: string;
  /** One cycle, in order. */
  phases: readonly { kind: BreathPhaseKind; seconds: number }[];
};

export const BREATHING_PATTERNS: Record<BreathingPatternId, BreathingPattern> = {
  box: {
    label: 'Box breathing',
    description: 'In for 4, hold for 4, out for 4, hold for 4.',
    phases: [
      { kind: 'in', seconds: 4 },
      { kind: 'hold', seconds: 4 },
      { kind: 'out', seconds: 4 },
      { kind: 'hold', seconds: 4 },
    ],
  },
  '4-7-8': {
    label: '4-7-8',
    description: 'In for 4, hold for 7, out for 8. Calming before sleep.',
    phases: [
      { kind: 'in', seconds: 4 },
      { kind: 'hold', seconds: 7 },
      { kind: 'out', seconds: 8 },
    ],
  },
  coherent: {
    label: 'Coherent breathing',
    description: 'In for 5.5, out for 5.5: about five breaths a minute.',
    phases: [
      { kind: 'in', seconds: 5.5 },
      { kind: 'out', seconds: 5.5 },
    ],
  },
  sigh: {
    label: 'Physiological sigh',
    description: 'A breath in, a short top-up breath in, then a long breath out.',
    phases: [
      { kind: 'in', seconds: 2 },
      { kind: 'in-again', seconds: 1 },
      { kind: 'out', seconds: 6 },
    ],
  },
};

export const BREATHING_LENGTH_COUNTS = [1, 3, 5, 10] as const;
type BreathingLengthCount = (typeof BREATHING_LENGTH_COUNTS)[number];
export const BREATHING_LENGTH_UNITS = ['minutes', 'cycles'] as const;
type BreathingLengthUnit = (typeof BREATHING_LENGTH_UNITS)[number];
export type BreathingLength = { count: BreathingLengthCount; unit: BreathingLengthUnit };

/** "3 minutes", "1 cycle". */
export function lengthLabel({ count, unit }: BreathingLength): string {
  return `${count} ${count === 1 ? unit.slice(0, -1) : unit}`;
}

/** The sounds made by scripts/generate-breathing-sounds.sh (src/web/public/sounds/breathing), one per phase kind. */
export const breathCueUrl = (kind: BreathPhaseKind): string => `/sounds/breathing/${kind}.mp3`;

export const BREATHING_MESSAGES = {
  badPattern: 'Choose one of the breathing patterns: Box breathing, 4-7-8, Coherent breathing or Physiological sigh.',
  badLength: 'Choose a length of 1, 3, 5 or 10 minutes or cycles.',
  badBreathed: 'The time breathed must be a number of seconds within the exercise’s length.',
  badBreathing: 'The breathing exercise’s measurement is malformed.',
  unsupported: 'This browser cannot play the breathing cues’ sounds, so the exercise runs without them.',
  soundsFailed: 'The sound cues could not be loaded, so the exercise runs without them.',
} as const;

/** `sound`: the soft cues; `haptics`: a light tap at each phase change, inside the apps. */
export type BreathingSettings = { pattern: BreathingPatternId; length: BreathingLength; sound: boolean; haptics: boolean };

export const DEFAULT_BREATHING_SETTINGS: BreathingSettings = { pattern: 'box', length: { count: 3, unit: 'minutes' }, sound: true, haptics: true };

const countSchema = z.union(BREATHING_LENGTH_COUNTS.map((n) => z.literal(n)));

/** Settings as the page keeps them on the device; anything unreadable falls back to the default, field by field. */
const settingsSchema = z.object({
  pattern: z.enum(BREATHING_PATTERN_IDS).catch(DEFAULT_BREATHING_SETTINGS.pattern),
  length: z.object({ count: countSchema, unit: z.enum(BREATHING_LENGTH_UNITS) }).catch(DEFAULT_BREATHING_SETTINGS.length),
  sound: z.boolean().catch(DEFAULT_BREATHING_SETTINGS.sound),
  haptics: z.boolean().catch(DEFAULT_BREATHING_SETTINGS.haptics),
});

export function readBreathingSettings(value: unknown): BreathingSettings {
  const parsed = settingsSchema.safeParse(value && typeof value === 'object' ? value : {});
  return parsed.success ? parsed.data : DEFAULT_BREATHING_SETTINGS;
}

/** One phase of the exercise, in seconds from its start. */
export type BreathPhase = { kind: BreathPhaseKind; at: number; seconds: number; /** 1-based. */ cycle: number };

export type BreathingPlan = { cycles: number; cycleSeconds: number; totalSeconds: number; phases: BreathPhase[] };

/** Seconds of one cycle of a pattern. */
export function cycleSeconds(pattern: BreathingPatternId): number {
  return BREATHING_PATTERNS[pattern].phases.reduce((sum, phase) => sum + phase.seconds, 0);
}

/**
 * The whole exercise. A length in cycles is that many cycles; a length in minutes is the number of
 * whole cycles nearest to it (at least one), so an exercise always ends at the end of a cycle, with
 * a breath out (or the box's last hold), never cut off mid-breath.
 */
export function planBreathing({ pattern, length }: { pattern: BreathingPatternId; length: BreathingLength }): BreathingPlan {
  const cycle = cycleSeconds(pattern);
  const cycles = length.unit === 'cycles' ? length.count : Math.max(1, Math.round((length.count * 60) / cycle));
  const phases: BreathPhase[] = [];
  let at = 0;
  for (let n = 1; n <= cycles; n += 1) {
    for (const { kind, seconds } of BREATHING_PATTERNS[pattern].phases) {
      phases.push({ kind, at, seconds, cycle: n });
      at += seconds;
    }
  }
  return { cycles, cycleSeconds: cycle, totalSeconds: at, phases };
}

/** Where the exercise is `elapsed` seconds after its start: the phase, the seconds left in it, or done. */
export function phaseAt(plan: BreathingPlan, elapsed: number): { index: number; phase: BreathPhase; remaining: number } | { done: true } {
  if (elapsed >= plan.totalSeconds) return { done: true };
  const t = Math.max(0, elapsed);
  // Phases are few (at most a few hundred) and in order: the last one started.
  let index = 0;
  for (let i = plan.phases.length - 1; i >= 0; i -= 1) {
    if (plan.phases[i].at <= t) {
      index = i;
      break;
    }
  }
  const phase = plan.phases[index];
  return { index, phase, remaining: phase.at + phase.seconds - t };
}

/** The guide's size at the end of a phase (0 empty lungs, 1 full); a hold keeps the size it had. */
export function guideScale(plan: BreathingPlan, index: number): number {
  const kind = plan.phases[index]?.kind;
  if (kind === 'in') return plan.phases[index + 1]?.kind === 'in-again' ? 0.8 : 1;
  if (kind === 'in-again') return 1;
  if (kind === 'out') return 0;
  return index > 0 ? guideScale(plan, index - 1) : 0;
}
