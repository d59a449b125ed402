/**
 * Programmes (issue 37, item 2; decision 0051): ordered multi-day courses, one catalogue meditation a
 * day with an optional reflection prompt. The rules here are shared so the server (which decides) and
 * the pages (which explain) cannot disagree: which day is done, which is open, and when the next opens.
 *
 * A day is done by a complete session of its meditation (the practice feature's honest rule, decision
 * 0034) made after the day opened. Day 1 opens at enrolment; each later day opens on the next calendar
 * day after the previous one was done, in the time zone the person enrolled in, or at once when they
 * chose "Don't wait" for it.
 */
import { addDays, dayKey, type DayKey } from '#shared/days.ts';

export const PROGRAMME_LIMITS = {
  titleMax: 120,
  descriptionMax: 600,
  reflectionMax: 500,
  slugMax: 80,
  daysMin: 2,
  daysMax: 60,
  /** Programmes an admin may keep (published or not): a list on one page, never a crawl. */
  programmesMax: 200,
} as const;

/** A programme's address: lower-case words joined by hyphens. */
export const PROGRAMME_SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/** User-facing words, once. */
export const PROGRAMME_MESSAGES = {
  heading: 'Programmes',
  intro: 'Short courses, one meditation a day. Day 1 of each is free to try.',
  empty: 'No programmes yet. New courses will appear here.',
  loadFailed: 'Programmes could not be loaded. Please check your connection and try again.',
  notFound: 'This programme does not exist, or is no longer offered.',
  start: 'Start programme',
  continue: 'Continue',
  dontWait: 'Don’t wait',
  dontWaitHint: 'Open the next day now instead of tomorrow.',
  leave: 'Leave programme',
  leaveConfirmTitle: 'Leave this programme?',
  leaveConfirmBody: 'Your progress in this programme will be forgotten. Your practice history stays.',
  restart: 'Restart programme',
  restartConfirmTitle: 'Restart from Day 1?',
  restartConfirmBody: 'Your progress in this programme starts again from Day 1. Your practice history stays.',
  reflect: 'Reflect in your journal',
  finished: 'Programme complete. Well done for showing up, day after day.',
  opensTomorrow: 'Opens tomorrow',
  signInToStart: 'Sign in to start',
  dayDone: 'Done',
  dayLocked: 'Subscribers only',
  homeHeading: 'Your programme',
  // Server refusals.
  badSlug: 'A programme address uses lower-case letters, numbers and hyphens only.',
  badTitle: `A programme needs a title of at most ${PROGRAMME_LIMITS.titleMax} characters.`,
  badDescription: `A programme needs a short description of at most ${PROGRAMME_LIMITS.descriptionMax} characters.`,
  badCover: 'Choose a cover from the catalogue’s categories.',
  badDays: `A programme has from ${PROGRAMME_LIMITS.daysMin} to ${PROGRAMME_LIMITS.daysMax} days.`,
  badReflection: `A reflection prompt is at most ${PROGRAMME_LIMITS.reflectionMax} characters.`,
  badMeditation: 'Each day needs a meditation from the catalogue.',
  unknownMeditation: 'A day names a meditation that is not in the catalogue.',
  dayOneNotFree: 'Day 1 must be a meditation marked “Free to try”: it is the day anyone may try.',
  slugTaken: 'Another programme already uses this address.',
  stillDayOne: 'This meditation is day 1 of a published programme, so it must stay free to try. Change or withdraw the programme first.',
  badTimezone: 'Time zone is not valid.',
  badOrder: 'The order must list every programme exactly once.',
  notEnrolled: 'You have not started this programme.',
  nothingToOpen: 'There is no day waiting to open.',
  extraField: 'Unexpected field.',
  tooMany: `At most ${PROGRAMME_LIMITS.programmesMax} programmes can be kept.`,
} as const;

/** "{title} · Day N of M", as home shows the programme in progress. */
export const programmeDayLine = (n: number, m: number): string => `Day ${n} of ${m}`;
/** A daily reminder's words when a programme's next day is ready (it replaces the day's affirmation). */
export const programmeReminder = (title: string, n: number, m: number): string => `${title} · ${programmeDayLine(n, m)} is ready when you are.`;
export const daysLabel = (m: number): string => `${m} days`;
/** The page routes (also in src/shared/routes.ts's page list and src/web/routes.tsx). */
export const PROGRAMMES_PATH = '/programmes';
export const programmePath = (slug: string): string => `${PROGRAMMES_PATH}/${slug}`;

export type ProgrammeSession = { meditationId: string; completedAt: Date };
export type ProgrammeEnrolment = {
  startedAt: Date;
  timeZone: string;
  /** The highest day number opened at once by "Don't wait" (0: none). */
  openedEarly: number;
};

type DayState = 'done' | 'open' | 'waiting' | 'later';

export type ProgrammeProgress = {
  days: { number: number; state: DayState; doneAt: Date | null }[];
  doneCount: number;
  /** The day to do next (1-based), or null when every day is done. */
  current: number | null;
  /** The current day waits for this calendar day (in the enrolment's zone); null when it is open or all are done. */
  opensOn: DayKey | null;
  finished: boolean;
};

/**
 * Progress through a programme of `days` (each a meditation id, in order) from the person's complete
 * sessions. Each session counts for at most one day, in time order: the first complete session of the
 * current day's meditation made once that day was open. A day after day 1 is open from the calendar
 * day after the previous day was done (in the enrolment's zone), or from the moment it was done when
 * the person chose "Don't wait" for it. Sessions before the enrolment never count (a restart starts over).
 */
export function programmeProgress({
  days,
  enrolment,
  sessions,
  now,
}: {
  days: readonly string[];
  enrolment: ProgrammeEnrolment;
  sessions: readonly ProgrammeSession[];
  now: Date;
}): ProgrammeProgress {
  const ordered = [...sessions].filter((s) => s.completedAt >= enrolment.startedAt).sort((a, b) => a.completedAt.getTime() - b.completedAt.getTime());
  const doneAt: Date[] = [];
  /** Whether a moment is inside the day `index` (0-based) given the previous day's completion. */
  const isOpenAt = (index: number, at: Date): boolean => {
    if (index === 0) return at >= enrolment.startedAt;
    const previous = doneAt.at(index - 1);
    if (!previous || at < previous) return false;
    if (index + 1 <= enrolment.openedEarly) return true;
    return dayKey(at, enrolment.timeZone) > dayKey(previous, enrolment.timeZone);
  };
  for (const session of ordered) {
    const index = doneAt.length;
    if (index >= days.length) break;
    if (session.meditationId === days[index] && isOpenAt(index, session.completedAt)) doneAt.push(session.completedAt);
  }
  const doneCount = doneAt.length;
  const finished = doneCount >= days.length;
  const current = finished ? null : doneCount + 1;
  const currentOpen = !finished && isOpenAt(doneCount, now);
  return {
    days: days.map((_, index) => ({
      number: index + 1,
      state: index < doneCount ? 'done' : index === doneCount ? (currentOpen ? 'open' : 'waiting') : 'later',
      doneAt: doneAt[index] ?? null,
    })),
    doneCount,
    current,
    opensOn: finished || currentOpen ? null : addDays(dayKey(doneAt[doneCount - 1] ?? enrolment.startedAt, enrolment.timeZone), 1),
    finished,
  };
}
