/**
 * Which meditations this account has completed (GET /api/practice/played), for the listing's
 * 'Played' marks. Kept under the practice feature's key (PRACTICE_QUERY_KEY), so a newly recorded session refreshes it.
 * Visitors have no account and so no marks: nothing is kept on a shared device.
 */
import { useQuery } from '@tanstack/react-query';
import { practiceApi } from '#shared/contracts/practice.routes.ts';
import { queryKeyOf } from '#shared/contracts/route.ts';
import { call } from '#web/lib/call.ts';

const EMPTY: ReadonlySet<string> = new Set();

export function usePlayed(signedIn: boolean): ReadonlySet<string> {
  const query = useQuery({
    queryKey: queryKeyOf(practiceApi.played),
    queryFn: ({ signal }) => call(practiceApi.played, {}, { signal }),
    enabled: signedIn,
    // Fresh enough between listings; a newly recorded session invalidates it at once.
    staleTime: 5 * 60_000,
    select: (data) => new Set(data.ids),
  });
  return signedIn ? (query.data ?? EMPTY) : EMPTY;
}
