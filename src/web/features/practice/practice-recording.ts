/**
 * What the timer's and the breathing guide's recordings share (timer-recording.ts, breathing-recording.ts):
 * what became of the last practice, for the page's closing words, and the send of one that has just
 * joined the device's session queue.
 */
import { flushSessions, readQueue, wasRefused } from '#web/features/practice/session-queue.ts';
import { PRACTICE_QUERY_KEY, sendSession } from '#web/features/practice/use-practice.ts';
import { queryClient } from '#web/lib/query-client.ts';
import type { PracticeOutcome } from '#shared/practice.ts';

/** What became of the last practice's record (shared/practice.ts), null while none has ended; pages read it with useSyncExternalStore. */
export function outcomeStore() {
  let outcome: PracticeOutcome | null = null;
  const listeners = new Set<() => void>();
  return {
    get: (): PracticeOutcome | null => outcome,
    set: (next: PracticeOutcome | null): void => {
      outcome = next;
      for (const listener of listeners) listener();
    },
    subscribe: (listener: () => void) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

/** Sends the practice `id` that has just joined `userId`'s queue, and says what became of it. */
export async function sendQueuedPractice(id: string, userId: string): Promise<PracticeOutcome> {
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
