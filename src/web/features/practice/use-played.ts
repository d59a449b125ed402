/**
 * Which meditations this account has completed (GET /api/practice/played), for the listing's
 * 'Played' marks. Kept under the practice query key, so a newly recorded session refreshes it.
 * Visitors have no account and so no marks: nothing is kept on a shared device.
 */
import { useQuery } from '@tanstack/react-query';
import type { PlayedResponse } from '#shared/contracts/practice.ts';
import { api } from '#web/lib/api.ts';

const EMPTY: ReadonlySet<string> = new Set();

export function usePlayed(signedIn: boolean): ReadonlySet<string> {
  const query = useQuery({
    queryKey: ['practice', 'played'],
    queryFn: ({ signal }) => api<PlayedResponse>('/api/practice/played', { signal }),
    enabled: signedIn,
    // Fresh enough between listings; a newly recorded session invalidates it at once.
    staleTime: 5 * 60_000,
    select: (data) => new Set(data.ids),
  });
  return signedIn ? (query.data ?? EMPTY) : EMPTY;
}
