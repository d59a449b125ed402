/**
 * The meditation timer (issue 20, item 1): its choices, their limits and words, and the plan of one
 * sitting (when each bell rings, when the sitting ends). Shared: the server checks a timer session
 * against the same limits the page offers, and the plan is a pure function the tests can read.
 */
import { z } from 'zod';

export const BELL_IDS = ['singing-bowl', 'temple-bell', 'soft-chime'] as const;
export type BellId = (typeof BELL_IDS)[number];
/** A bell slot may also be silent. */
export type BellChoice = BellId | 'none';

export const BED_IDS = ['rain', 'ocean'] as const;
export type BedId = (typeof BED_IDS)[number];
export type BedChoice = BedId | 'none';

export const BELL_LABELS: Record<BellChoice, string> = { 'singing-bowl': 'Singing bowl', 'temple-bell': 'Temple bell', 'soft-chime': 'Soft chime', none: 'No bell' };
export const BED_LABELS: Record<BedChoice, string> = { rain: 'Soft rain', ocean: 'Distant ocean', none: 'Silence' };

/** Where the page fetches each sound (src/web/public/sounds, made by scripts/generate-timer-sounds.sh). */
export const bellUrl = (bell: BellId): string => `/sounds/bells/${bell}.mp3`;
export const bedUrl = (bed: BedId): string => `/sounds/beds/${bed}.mp3`;

export const TIMER = {
  presetMinutes: [5, 10, 15, 20, 30, 45, 60],
  /** A custom length, in whole minutes. Three hours covers a long retreat sitting. */
  minMinutes: 1,
  maxMinutes: 180,
  /** Seconds of settling in before the starting bell (0: none). */
  warmUpSeconds: [0, 10, 30, 60],
  /** Minutes between interval bells (0: none). */
  intervalMinutes: [0, 1, 2, 3, 5, 10, 15, 20, 30],
  /** A bed fades in and out this long, and crossfades into itself this long where it loops. */
  bedFadeSeconds: 3,
} as const;

export const TIMER_MESSAGES = {
  badLength: `Choose a length between ${TIMER.minMinutes} and ${TIMER.maxMinutes} minutes.`,
  badSat: 'The time sat must be a number of seconds within the timer’s length.',
  badTimer: 'The timer’s measurement is malformed.',
  unsupported: 'This browser cannot play the timer’s sounds.',
  soundsFailed: 'The timer’s sounds could not be loaded. Please check your connection and try again.',
} as const;

export type TimerSettings = {
  minutes: number;
  warmUpSeconds: number;
  startBell: BellChoice;
  intervalMinutes: number;
  intervalBell: BellChoice;
  endBell: BellChoice;
  bed: BedChoice;
};

export const DEFAULT_TIMER_SETTINGS: TimerSettings = {
  minutes: 10,
  warmUpSeconds: 10,
  startBell: 'singing-bowl',
  intervalMinutes: 0,
  intervalBell: 'soft-chime',
  endBell: 'singing-bowl',
  bed: 'none',
};

const bellChoice = z.enum([...BELL_IDS, 'none']);
const oneOf = (values: readonly number[]) => z.number().refine((n) => values.includes(n));

/** Settings as the page keeps them on the device; anything unreadable falls back to the default, field by field. */
const timerSettingsSchema = z.object({
  minutes: z.number().int().min(TIMER.minMinutes).max(TIMER.maxMinutes).catch(DEFAULT_TIMER_SETTINGS.minutes),
  warmUpSeconds: oneOf(TIMER.warmUpSeconds).catch(DEFAULT_TIMER_SETTINGS.warmUpSeconds),
  startBell: bellChoice.catch(DEFAULT_TIMER_SETTINGS.startBell),
  intervalMinutes: oneOf(TIMER.intervalMinutes).catch(DEFAULT_TIMER_SETTINGS.intervalMinutes),
  intervalBell: bellChoice.catch(DEFAULT_TIMER_SETTINGS.intervalBell),
  endBell: bellChoice.catch(DEFAULT_TIMER_SETTINGS.endBell),
  bed: z.enum([...BED_IDS, 'none']).catch(DEFAULT_TIMER_SETTINGS.bed),
});

export function readTimerSettings(value: unknown): TimerSettings {
  const parsed = timerSettingsSchema.safeParse(value && typeof value === 'object' ? value : {});
  return parsed.success ? parsed.data : DEFAULT_TIMER_SETTINGS;
}

/** A custom length as typed: whole minutes within the limits, or the message to show. */
export function parseCustomMinutes(text: string): { minutes: number } | { error: string } {
  const trimmed = text.trim();
  if (!/^\d{1,3}$/.test(trimmed)) return { error: TIMER_MESSAGES.badLength };
  const minutes = Number(trimmed);
  return minutes >= TIMER.minMinutes && minutes <= TIMER.maxMinutes ? { minutes } : { error: TIMER_MESSAGES.badLength };
}

type BellCue = { at: number; bell: BellId; kind: 'start' | 'interval' | 'end' };

export type TimerPlan = {
  /** Seconds from pressing Begin: the sitting starts after the warm-up… */
  sitStart: number;
  /** …and ends here, with the ending bell. */
  sitEnd: number;
  /** The sitting's planned length, in seconds. */
  plannedSeconds: number;
  /** Every bell, in order. An interval bell never rings together with the ending bell. */
  bells: BellCue[];
  /** The bed plays over the sitting (not the warm-up), when one was chosen. */
  bed: { id: BedId; from: number; to: number } | null;
};

/** When everything happens in one sitting, in seconds from pressing Begin. */
export function planTimer(settings: TimerSettings): TimerPlan {
  const sitStart = settings.warmUpSeconds;
  const plannedSeconds = settings.minutes * 60;
  const sitEnd = sitStart + plannedSeconds;
  const bells: BellCue[] = [];
  if (settings.startBell !== 'none') bells.push({ at: sitStart, bell: settings.startBell, kind: 'start' });
  if (settings.intervalMinutes > 0 && settings.intervalBell !== 'none') {
    const every = settings.intervalMinutes * 60;
    for (let at = sitStart + every; at < sitEnd; at += every) bells.push({ at, bell: settings.intervalBell, kind: 'interval' });
  }
  if (settings.endBell !== 'none') bells.push({ at: sitEnd, bell: settings.endBell, kind: 'end' });
  return { sitStart, sitEnd, plannedSeconds, bells, bed: settings.bed === 'none' ? null : { id: settings.bed, from: sitStart, to: sitEnd } };
}

/**
 * Where the copies of a looping bed start, so each fades into the next over `fade` seconds:
 * a copy of `length` seconds every `length - fade` seconds, from `from` until `to`.
 */
export function bedCopies({ from, to, length, fade }: { from: number; to: number; length: number; fade: number }): number[] {
  const step = length - fade;
  if (!(step > 0) || !(to > from)) return [];
  const starts: number[] = [];
  for (let at = from; at < to; at += step) starts.push(at);
  return starts;
}

/** The bells a plan needs, each once, for loading. */
export function bellsOf(plan: TimerPlan): BellId[] {
  return [...new Set(plan.bells.map((cue) => cue.bell))];
}
