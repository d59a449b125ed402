/**
 * Finished plays become practice sessions, with what was actually listened to (the server decides
 * whether each was complete or partial): written to the device first (session-queue.ts), so a lost
 * connection cannot lose one, then sent, now and whenever the browser comes back online.
 */
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import type { AudioEngine } from '#web/features/player/audio-engine.ts';
import { enqueueSession, flushSessions } from '#web/features/practice/session-queue.ts';
import { PRACTICE_QUERY_KEY, sendSession } from '#web/features/practice/use-practice.ts';

function useSessionRecording(engine: AudioEngine, userId: string | null): void {
  const queryClient = useQueryClient();
  useEffect(() => {
    if (!userId) return;
    const flush = () => {
      void flushSessions(userId, sendSession).then((delivered) => {
        if (delivered > 0) void queryClient.invalidateQueries({ queryKey: PRACTICE_QUERY_KEY });
      });
    };
    // Sessions completed while offline (or signed out mid-play) are sent when possible.
    flush();
    window.addEventListener('online', flush);
    const stopListening = engine.onFinished(({ playId, meditationId, listened }) => {
      enqueueSession({ id: playId, meditationId, completedAt: new Date().toISOString(), listened, userId });
      flush();
    });
    return () => {
      window.removeEventListener('online', flush);
      stopListening();
    };
  }, [engine, userId, queryClient]);
}

/**
 * The recording, as a component the player mounts once its chunk has loaded (lazy-chunks.ts), after
 * the first paint: no play can end before then. It renders nothing.
 */
export function SessionRecording({ engine, userId }: { engine: AudioEngine; userId: string | null }): null {
  useSessionRecording(engine, userId);
  return null;
}
