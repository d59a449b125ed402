/**
 * What the timer's and the breathing guide's recordings share (timer-recording.ts, breathing-recording.ts):
 * what became of the last practice, for the page's closing words, and the record of one that has just
 * ended: the rules for whether it counts, the device's session queue, the send.
 */
import { PARTIAL_SESSION_MIN_SECONDS } from '#shared/listening.ts';
import type { RecordSessionBody } from '#shared/contracts/practice.ts';
import { enqueueSession, flushSessions, readQueue, wasRefused } from '#web/features/practice/session-queue.ts';
import { PRACTICE_QUERY_KEY, sendSession } from '#web/features/practice/use-practice.ts';
import { queryClient } from '#web/lib/query-client.ts';
import type { PracticeOutcome } from '#shared/practice.ts';

/** What became of the last practice's record (shared/practice.ts), null while none has ended; pages read it with useSyncExternalStore. */
export function outcomeStore() {
  let outcome: PracticeOutcome | null = null;
  const listeners = new Set<() => void>();
  const set = (next: PracticeOutcome | null): void => {
    outcome = next;
    for (const listener of listeners) listener();
  };
  return {
    get: (): PracticeOutcome | null => outcome,
    set,
    subscribe: (listener: () => void) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    /** Shows what becomes of `recording`; one that failed before it reached the queue is shown as waiting. */
    follow: (recording: Promise<PracticeOutcome>, what: string): void => {
      void recording.then(set, (error: unknown) => {
        console.warn(`${what}: session not recorded`, error);
        set('waiting');
      });
    },
  };
}

/**
 * A finished timed practice (a sitting, an exercise) for `userId` becomes the session `body`, as a
 * guided play does: not for a visitor, nor when it was stopped before a minute; otherwise it joins the
 * device's session queue first, then is sent.
 */
export async function recordTimedPractice(userId: string | null, finished: { ranToEnd: boolean; seconds: number }, body: RecordSessionBody): Promise<PracticeOutcome> {
  if (!userId) return 'visitor';
  if (!finished.ranToEnd && finished.seconds < PARTIAL_SESSION_MIN_SECONDS) return 'too-short';
  enqueueSession({ ...body, userId });
  return sendQueuedPractice(body.id, userId);
}

/** Sends the practice `id` that has just joined `userId`'s queue, and says what became of it. */
async function sendQueuedPractice(id: string, userId: string): Promise<PracticeOutcome> {
  const waiting = () => readQueue().some((s) => s.id === id && s.userId === userId);
  // A send already under way (another tab's, the player's, the other practice's) may have read the
  // queue before this practice joined it: the second run is this one's own.
  await flushSessions(userId, sendSession);
  if (waiting()) await flushSessions(userId, sendSession);
  if (waiting()) return 'waiting';
  if (wasRefused(id)) return 'refused';
  void queryClient.invalidateQueries({ queryKey: PRACTICE_QUERY_KEY });
  return 'recorded';
}
