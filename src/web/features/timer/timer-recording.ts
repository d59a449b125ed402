/**
 * A finished sitting becomes a practice session of kind `timer` (issue 20, item 1), exactly as a
 * guided play does: a sitting that ran to its end always, one ended early after a minute or more
 * (a partial session); written to the device's session queue first, then sent. It is recorded for
 * the account that began it, even when the person has moved to another page by the time it ends.
 */
import { outcomeStore, recordTimedPractice } from '#web/features/practice/practice-recording.ts';
import type { TimerSettings } from '#shared/timer.ts';
import { timerEngine } from '#web/features/timer/timer-engine.ts';

/** What became of the last sitting, for the page's closing words. */
export const sittingOutcome = outcomeStore();

let owner: string | null = null;

/** Begins a sitting for `userId` (null: a visitor, whose sitting is not recorded). */
export function beginSitting(settings: TimerSettings, userId: string | null): Promise<void> {
  owner = userId;
  sittingOutcome.set(null);
  return timerEngine.start(settings);
}

timerEngine.onFinished((sitting) => {
  const userId = owner;
  owner = null;
  const body = { kind: 'timer', id: sitting.id, completedAt: sitting.completedAt, timer: { plannedSeconds: sitting.plannedSeconds, satSeconds: Math.round(sitting.satSeconds) } } as const;
  sittingOutcome.follow(recordTimedPractice(userId, { ranToEnd: sitting.ranToEnd, seconds: sitting.satSeconds }, body), 'timer');
});
