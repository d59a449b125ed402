/**
 * The meditations this person has a copy of on this device, for the cards' "Downloaded" badge,
 * the "Downloaded" filter and what plays offline (issue 38, item 5). The same query as
 * useOfflineCopies (use-downloads.ts) but with the store loaded on demand, so the catalogue's first
 * download does not carry IndexedDB's code.
 */
import { useQuery } from '@tanstack/react-query';
import type { OfflineCopy } from '#web/features/downloads/offline-store.ts';
import { loadOfflineStore, OFFLINE_QUERY_KEY } from '#web/lazy-chunks.ts';

const NONE: ReadonlySet<string> = new Set();

export function useDownloadedIds(userId: string | null): ReadonlySet<string> {
  const copies = useQuery<OfflineCopy[], Error, ReadonlySet<string>>({
    queryKey: [...OFFLINE_QUERY_KEY, userId],
    queryFn: async () => (userId ? (await loadOfflineStore()).listOfflineCopies(userId) : []),
    enabled: Boolean(userId) && typeof indexedDB !== 'undefined',
    networkMode: 'always',
    select: (list) => new Set(list.map((copy) => copy.meditationId)),
  });
  return copies.data ?? NONE;
}
