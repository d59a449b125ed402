/** The practice summary for the account page, and sending completed sessions. */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { PracticePreferencesBody, PracticeResponse, RecordSessionBody } from '#shared/contracts/practice.ts';
import { practiceApi } from '#shared/contracts/practice.routes.ts';
import { queryKeyOf } from '#shared/contracts/route.ts';
import { platform } from '#web/platform/platform.ts';
import { ApiError } from '#web/lib/api.ts';
import { call } from '#web/lib/call.ts';
import type { SendResult } from '#web/features/practice/session-queue.ts';

/** Every practice query (the summary and the played marks): what a recorded session may change. */
export const PRACTICE_QUERY_KEY = [practiceApi.summary.feature] as const;
/** The summary's queries, whatever time zone each was asked in. */
const SUMMARY_KEY = queryKeyOf(practiceApi.summary);

function userTimezone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
}

export function usePractice(enabled: boolean) {
  const query = { tz: userTimezone() };
  return useQuery({
    queryKey: queryKeyOf(practiceApi.summary, { query }),
    queryFn: ({ signal }) => call(practiceApi.summary, { query }, { signal }),
    enabled,
  });
}

/** Changes one practice preference (the streak switch, or the answer to "What brings you here?"). */
export function usePracticePreference() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: PracticePreferencesBody) => call(practiceApi.preferences, { body }),
    onSuccess: (saved) => {
      // The summary shows the new answer at once; the refetch brings the streak numbers it hides or shows.
      client.setQueriesData<PracticeResponse>({ queryKey: SUMMARY_KEY }, (old) => (old ? { ...old, ...saved } : old));
      return client.invalidateQueries({ queryKey: PRACTICE_QUERY_KEY });
    },
  });
}

/** One POST /api/sessions, classified for the queue. */
export async function sendSession(body: RecordSessionBody): Promise<SendResult> {
  try {
    const answer = await call(practiceApi.record, { body });
    if (answer.created && answer.session.complete && platform().mindfulMinutes) {
      // Inside the apps, a completed session may go to Apple Health / Health Connect as mindful minutes (loaded there only).
      const end = new Date(body.completedAt);
      const seconds = body.kind === 'timer' ? body.timer.satSeconds : body.kind === 'breathing' ? body.breathing.breathedSeconds : body.listened.seconds;
      const session = { start: new Date(end.getTime() - seconds * 1000), end, kind: body.kind ?? 'guided' };
      void import('#web/features/mindful-minutes/mindful-minutes.ts').then((m) => m.noteCompletedSession(session));
    }
    return 'sent';
  } catch (error) {
    if (error instanceof ApiError && error.status >= 400 && error.status < 500 && ![401, 408, 429].includes(error.status)) return 'rejected';
    return 'retry';
  }
}
