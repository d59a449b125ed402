/**
 * The breathing engine of the page, and what becomes of a finished exercise (issue 37, item 1): a
 * practice session of kind `breathing`, by the timer's rules (timer-recording.ts): one that ran to its
 * end always, one stopped early after a minute or more (a partial session); written to the device's
 * session queue first, then sent, so an exercise done offline counts once the connection is back.
 */
import type { BreathingSettings } from '#shared/breathing.ts';
import { outcomeStore, recordTimedPractice } from '#web/features/practice/practice-recording.ts';
import { createBreathingEngine } from '#web/features/breathing/breathing-engine.ts';
import { VIEWER_QUERY_KEY } from '#web/features/auth/use-viewer.ts';
import type { MeResponse } from '#shared/contracts/auth.ts';
import { queryClient } from '#web/lib/query-client.ts';
import { platform } from '#web/platform/platform.ts';

export const breathingEngine = createBreathingEngine({
  tap: () => {
    void platform()
      .haptics?.tap()
      .catch((error: unknown) => console.warn('breathing: no haptics', error));
  },
});

/** What became of the last exercise, for the page's closing words. */
export const exerciseOutcome = outcomeStore();

let owner: string | null | undefined = null;

/**
 * Begins an exercise for `userId` (null: a visitor, whose exercise is not recorded; undefined: not
 * known yet, when Start was pressed before /api/me answered, so the answer known at the end decides).
 */
export function beginExercise(settings: BreathingSettings, userId: string | null | undefined): Promise<void> {
  owner = userId;
  exerciseOutcome.set(null);
  return breathingEngine.start(settings);
}

breathingEngine.onFinished((exercise) => {
  const userId = owner === undefined ? (queryClient.getQueryData<MeResponse>(VIEWER_QUERY_KEY)?.user?.id ?? null) : owner;
  owner = null;
  const { pattern, length } = exercise.settings;
  const body = { kind: 'breathing', id: exercise.id, completedAt: exercise.completedAt, breathing: { pattern, length, breathedSeconds: exercise.breathedSeconds } } as const;
  exerciseOutcome.follow(recordTimedPractice(userId, { ranToEnd: exercise.ranToEnd, seconds: exercise.breathedSeconds }, body), 'breathing');
});
