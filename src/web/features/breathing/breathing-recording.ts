/**
 * The breathing engine of the page, and what becomes of a finished exercise (issue 37, item 1): a
 * practice session of kind `breathing`, by the timer's rules (timer-recording.ts): one that ran to its
 * end always, one stopped early after a minute or more (a partial session); written to the device's
 * session queue first, then sent, so an exercise done offline counts once the connection is back.
 */
import { PARTIAL_SESSION_MIN_SECONDS } from '#shared/listening.ts';
import type { BreathingSettings } from '#shared/breathing.ts';
import { enqueueSession, flushSessions, readQueue, wasRefused } from '#web/features/practice/session-queue.ts';
import { PRACTICE_QUERY_KEY, sendSession } from '#web/features/practice/use-practice.ts';
import { createBreathingEngine, type FinishedExercise } from '#web/features/breathing/breathing-engine.ts';
import { VIEWER_QUERY_KEY } from '#web/features/auth/use-viewer.ts';
import type { MeResponse } from '#shared/contracts/auth.ts';
import { queryClient } from '#web/lib/query-client.ts';
import { platform } from '#web/platform/platform.ts';
import type { PracticeOutcome } from '#shared/practice.ts';

/** What became of the last exercise, for the page's closing words. */
export type ExerciseOutcome = PracticeOutcome | null;

export const breathingEngine = createBreathingEngine({
  tap: () => {
    void platform()
      .haptics?.tap()
      .catch((error: unknown) => console.warn('breathing: no haptics', error));
  },
});

let owner: string | null | undefined = null;
let outcome: ExerciseOutcome = null;
const listeners = new Set<() => void>();

function setOutcome(next: ExerciseOutcome) {
  outcome = next;
  for (const listener of listeners) listener();
}

export const exerciseOutcome = {
  get: (): ExerciseOutcome => outcome,
  subscribe: (listener: () => void) => {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
};

/**
 * Begins an exercise for `userId` (null: a visitor, whose exercise is not recorded; undefined: not
 * known yet, when Start was pressed before /api/me answered, so the answer known at the end decides).
 */
export function beginExercise(settings: BreathingSettings, userId: string | null | undefined): Promise<void> {
  owner = userId;
  setOutcome(null);
  return breathingEngine.start(settings);
}

async function recordExercise(exercise: FinishedExercise, userId: string | null): Promise<ExerciseOutcome> {
  if (!userId) return 'visitor';
  if (!exercise.ranToEnd && exercise.breathedSeconds < PARTIAL_SESSION_MIN_SECONDS) return 'too-short';
  const { pattern, length } = exercise.settings;
  enqueueSession({ kind: 'breathing', id: exercise.id, completedAt: exercise.completedAt, breathing: { pattern, length, breathedSeconds: exercise.breathedSeconds }, userId });
  const waiting = () => readQueue().some((s) => s.id === exercise.id && s.userId === userId);
  // A send already under way (the player's, the timer's) may have read the queue before this one joined it.
  await flushSessions(userId, sendSession);
  if (waiting()) await flushSessions(userId, sendSession);
  if (waiting()) return 'waiting';
  if (wasRefused(exercise.id)) return 'refused';
  void queryClient.invalidateQueries({ queryKey: PRACTICE_QUERY_KEY });
  return 'recorded';
}

breathingEngine.onFinished((exercise) => {
  const userId = owner === undefined ? (queryClient.getQueryData<MeResponse>(VIEWER_QUERY_KEY)?.user?.id ?? null) : owner;
  owner = null;
  void recordExercise(exercise, userId).then(setOutcome, (error: unknown) => {
    console.warn('breathing: session not recorded', error);
    setOutcome('waiting');
  });
});
