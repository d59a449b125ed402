/**
 * Practice: completed sessions, minutes and streaks. Pure functions over calendar days in the
 * user's timezone, shared by the server (GET /api/practice) and the web app (offline view).
 */
import { addDays, mondayOf, type DayKey } from '#shared/days.ts';

export type PracticeDay = { date: DayKey; sessions: number; minutes: number };

/**
 * A meditation played, a sitting with the meditation timer (issue 20, item 1), or a guided breathing
 * exercise at /breathe (issue 37, item 1).
 */
export const SESSION_KINDS = ['guided', 'timer', 'breathing'] as const;
export type SessionKind = (typeof SESSION_KINDS)[number];

/** Oldest completed session the server accepts: offline queues may send late, not forever. */
export const SESSION_MAX_AGE_DAYS = 90;
/** Allowed device clock skew for a completion time in the future. */
export const SESSION_FUTURE_SKEW_MS = 5 * 60 * 1000;

/**
 * One person sits one session at a time (issue 33, row 10): a session spans the time it credits, ending at
 * its completion time, and may not overlap another of the same person's by more than this. The grace
 * covers a crossfade from one track into the next and two devices' clocks a little apart.
 */
export const SESSION_OVERLAP_GRACE_SECONDS = 120;
/**
 * The most sessions one account records on one (UTC) day. A play of a few seconds is a session too
 * (partial), so a person skipping through a category makes many; 200 is far past any real day and
 * keeps one account's rows bounded (about 18 000 for the 90 days a late upload may reach back).
 */
export const SESSIONS_PER_DAY_MAX = 200;

/**
 * Streaks over days with at least one session. The current streak ends today, or yesterday
 * when today has no session yet: a day still in progress never breaks a streak.
 */
export function computeStreaks(days: Iterable<DayKey>, today: DayKey): { current: number; longest: number } {
  const set = new Set(days);
  const sorted = [...set].sort();
  let longest = 0;
  let run = 0;
  let previous: DayKey | undefined;
  for (const day of sorted) {
    run = previous !== undefined && addDays(previous, 1) === day ? run + 1 : 1;
    longest = Math.max(longest, run);
    previous = day;
  }
  let cursor = set.has(today) ? today : addDays(today, -1);
  let current = 0;
  while (set.has(cursor)) {
    current += 1;
    cursor = addDays(cursor, -1);
  }
  return { current, longest };
}

/** Monday-to-Sunday of the week containing `today`, filled from per-day totals. */
export function weekOf(today: DayKey, totals: readonly PracticeDay[]): PracticeDay[] {
  const monday = mondayOf(today);
  const byDate = new Map(totals.map((t) => [t.date, t]));
  return Array.from({ length: 7 }, (_, i) => {
    const date = addDays(monday, i);
    return byDate.get(date) ?? { date, sessions: 0, minutes: 0 };
  });
}

/** Spec: the session logs the meditation's duration rounded to minutes. */
export function sessionMinutes(durationSeconds: number | null | undefined): number | null {
  if (durationSeconds == null || !Number.isFinite(durationSeconds) || durationSeconds < 0) return null;
  return Math.round(durationSeconds / 60);
}

/**
 * Minutes practised as a total is shown (issue 38: 'Minutes 0' after a complete 25-second session):
 * the seconds are summed first and rounded once, by sessionMinutes' rule, and some practice short of
 * half a minute reads '<1', never 0.
 */
export function practiceMinutesText(seconds: number): string {
  const minutes = sessionMinutes(seconds) ?? 0;
  return seconds > 0 && minutes < 1 ? '<1' : String(minutes);
}

/**
 * How the practice card's history names one session (issue 20, item 3): what is shown, and what a
 * screen reader says instead of the middle dots and abbreviations.
 */
export function sessionLabel({ complete, minutes, trackMinutes, kind = 'guided' }: { complete: boolean; minutes: number | null; trackMinutes: number | null; kind?: SessionKind }): { text: string; spoken: string } {
  const heard = minutes ?? 0;
  const verb = kind === 'timer' ? 'sat' : kind === 'breathing' ? 'breathed' : 'listened';
  const spokenMinutes = (n: number) => (n < 1 ? 'under a minute' : `${n} ${n === 1 ? 'minute' : 'minutes'}`);
  const shortMinutes = (n: number) => (n < 1 ? 'under a minute' : `${n} min`);
  if (complete) return { text: `Complete · ${shortMinutes(heard)}`, spoken: `Complete session, ${spokenMinutes(heard)}` };
  if (trackMinutes == null || trackMinutes < 1) return { text: `Partial · ${shortMinutes(heard)}`, spoken: `Partial session, ${spokenMinutes(heard)} ${verb}` };
  const part = heard < 1 ? 'under a minute' : String(heard);
  return { text: `Partial · ${part} of ${trackMinutes} min`, spoken: `Partial session, ${part} of ${spokenMinutes(trackMinutes)} ${verb}` };
}

export const PRACTICE_MESSAGES = {
  sessionTooOld: `This session is more than ${SESSION_MAX_AGE_DAYS} days old and can no longer be recorded.`,
  sessionInFuture: 'This session’s completion time is in the future.',
  invalidTimezone: 'Unknown timezone.',
  meditationNotFound: 'Meditation not found',
  /** An app from before honest sessions (decision 0034): it sends no measurement of what was heard. */
  listeningRequired: 'This version of the app can no longer record sessions. Please reload or update the app to keep track of your practice.',
  badListened: 'The listening measurement is malformed.',
  badPosition: 'The position must be a number of seconds within the track.',
  badPositionTime: 'A time for the position is required.',
  positionInFuture: 'This position’s time is in the future.',
  badRange: 'Each listened range needs a start and an end, in seconds within the track.',
  tooManyRanges: 'Too many listened ranges for one session.',
  unknownKind: 'Unknown kind of session.',
  badListenedSeconds: 'The listening time must be a number of seconds no longer than the track at the slowest speed.',
  unknownFocus: 'Choose one of the listed answers.',
  noPreference: 'Nothing to change.',
  /** Issue 33, row 10: what the session queue is told when the server will not count a session. */
  sessionOverlaps: 'This session overlaps another session already recorded for you, and one person sits one session at a time, so it was not recorded.',
  tooManySessions: `${SESSIONS_PER_DAY_MAX} sessions are already recorded for you on this day, the most one day can hold, so this one was not recorded.`,
  needsSubscription: 'This meditation is part of the subscription, so a session of it is recorded only for time you were subscribed.',
} as const;

/**
 * "What brings you here?" (issue 17, item 3): asked once after the trial starts (and on home until
 * answered), kept with the practice preferences, and used to suggest a meditation from its category.
 */
export const FOCUS_CHOICES = [
  { id: 'sleep', label: 'Sleeping better', category: 'sleeping' },
  { id: 'stress', label: 'Feeling less stressed', category: 'emotional-wellbeing' },
  { id: 'mornings', label: 'Starting the day well', category: 'morning' },
  { id: 'condition', label: 'Living with a health condition', category: 'chronic-health-care' },
] as const;
export type FocusId = (typeof FOCUS_CHOICES)[number]['id'];
export const FOCUS_IDS = FOCUS_CHOICES.map((choice) => choice.id) as [FocusId, ...FocusId[]];
/** Before any answer: a short, general practice. */
const DEFAULT_FOCUS_CATEGORY = 'mindfulness';

export function focusCategory(focus: FocusId | null | undefined): string {
  return FOCUS_CHOICES.find((choice) => choice.id === focus)?.category ?? DEFAULT_FOCUS_CATEGORY;
}

/**
 * What became of a timed practice (a sitting or a breathing exercise) once it ended, as the device's
 * recording says it (timer-recording.ts, breathing-recording.ts).
 */
export type PracticeOutcome =
  /** Sent and kept by the server. */
  | 'recorded'
  /** Kept on this device, sent when the connection is back. */
  | 'waiting'
  /** The server would not take it (it did not add up): not counted. */
  | 'refused'
  /** Ended before a minute: not practice yet. */
  | 'too-short'
  /** Nobody was signed in when it began. */
  | 'visitor';

/** The words under a finished sitting or exercise ('this sitting', 'this exercise'), for each outcome. */
export const practiceOutcomeWords = (what: 'sitting' | 'exercise', partial: boolean): Record<Exclude<PracticeOutcome, 'visitor'>, string> => ({
  recorded: partial ? 'Added to your practice as a partial session.' : 'Added to your practice.',
  waiting: 'Saved on this device. It will be added to your practice when you are back online.',
  'too-short': 'Less than a minute, so it is not added to your practice.',
  refused: `This ${what} could not be added to your practice.`,
});
