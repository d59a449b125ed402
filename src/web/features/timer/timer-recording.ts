/**
 * A finished sitting becomes a practice session of kind `timer` (issue 20, item 1), exactly as a
 * guided play does: a sitting that ran to its end always, one ended early after a minute or more
 * (a partial session); written to the device's session queue first, then sent. It is recorded for
 * the account that began it, even when the person has moved to another page by the time it ends.
 */
import { PARTIAL_SESSION_MIN_SECONDS } from '#shared/listening.ts';
import { enqueueSession, flushSessions, readQueue, wasRefused } from '#web/features/practice/session-queue.ts';
import { PRACTICE_QUERY_KEY, sendSession } from '#web/features/practice/use-practice.ts';
import type { TimerSettings } from '#shared/timer.ts';
import { timerEngine, type FinishedSitting } from '#web/features/timer/timer-engine.ts';
import { queryClient } from '#web/lib/query-client.ts';
import type { PracticeOutcome } from '#shared/practice.ts';

/** What became of the last sitting, for the page's closing words. */
/** What became of the sitting's record (shared/practice.ts), null while none has ended. */
export type SittingOutcome = PracticeOutcome | null;

let owner: string | null = null;
let outcome: SittingOutcome = null;
const listeners = new Set<() => void>();

function setOutcome(next: SittingOutcome) {
  outcome = next;
  for (const listener of listeners) listener();
}

export const sittingOutcome = {
  get: (): SittingOutcome => outcome,
  subscribe: (listener: () => void) => {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
};

/** Begins a sitting for `userId` (null: a visitor, whose sitting is not recorded). */
export function beginSitting(settings: TimerSettings, userId: string | null): Promise<void> {
  owner = userId;
  setOutcome(null);
  return timerEngine.start(settings);
}

async function recordSitting(sitting: FinishedSitting, userId: string | null): Promise<SittingOutcome> {
  if (!userId) return 'visitor';
  if (!sitting.ranToEnd && sitting.satSeconds < PARTIAL_SESSION_MIN_SECONDS) return 'too-short';
  enqueueSession({ kind: 'timer', id: sitting.id, completedAt: sitting.completedAt, timer: { plannedSeconds: sitting.plannedSeconds, satSeconds: Math.round(sitting.satSeconds) }, userId });
  const waiting = () => readQueue().some((s) => s.id === sitting.id && s.userId === userId);
  // A send already under way (another tab's, the player's) may have read the queue before this
  // sitting joined it: the second run is this one's own.
  await flushSessions(userId, sendSession);
  if (waiting()) await flushSessions(userId, sendSession);
  if (waiting()) return 'waiting';
  if (wasRefused(sitting.id)) return 'refused';
  void queryClient.invalidateQueries({ queryKey: PRACTICE_QUERY_KEY });
  return 'recorded';
}

timerEngine.onFinished((sitting) => {
  const userId = owner;
  owner = null;
  void recordSitting(sitting, userId).then(setOutcome, (error: unknown) => {
    console.warn('timer: session not recorded', error);
    setOutcome('waiting');
  });
});
