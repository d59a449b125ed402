/**
 * The listing's search and length filter, kept in the address (?q=, ?length=) so back, reload and a
 * shared link keep them. Words are matched on the device at once; words spoken in a meditation are
 * asked of the server (debounced) and added. A prepared page renders unfiltered, and so does its
 * hydration; the filter applies once the page is live (lib/hydration.tsx).
 */
import { useQuery } from '@tanstack/react-query';
import { useDeferredValue, useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import { cardMatches, lengthFilter, SEARCH_MAX_LENGTH, SEARCH_MIN_SERVER_LENGTH, type LengthFilterId } from '#shared/catalogue-search.ts';
import type { MeditationCard } from '#shared/contracts/catalogue.ts';
import { catalogueApi } from '#shared/contracts/catalogue.routes.ts';
import { queryKeyOf } from '#shared/contracts/route.ts';
import { freeFirst, matchesShow, showFilter, type ShowFilterId } from '#web/features/catalogue/listing-order.ts';
import { call } from '#web/lib/call.ts';
import { useHydrated } from '#web/lib/hydration.tsx';

const SERVER_SEARCH_DELAY_MS = 300;

function useDebounced(value: string, delayMs: number): string {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), delayMs);
    return () => clearTimeout(timer);
  }, [value, delayMs]);
  return settled;
}

/**
 * `freeOnesFirst` for whoever cannot play the rest (issue 38, item 1); `downloaded` holds the ids
 * with a copy on this device, for the "Downloaded" filter (?show=).
 */
export function useListingFilter(cards: MeditationCard[] | undefined, { freeOnesFirst, downloaded }: { freeOnesFirst: boolean; downloaded: ReadonlySet<string> }) {
  const hydrated = useHydrated();
  const [params, setParams] = useSearchParams();
  const search = hydrated ? (params.get('q') ?? '').slice(0, SEARCH_MAX_LENGTH) : '';
  const length = lengthFilter(hydrated ? params.get('length') : null);
  const show = showFilter(hydrated ? params.get('show') : null);
  const deferredSearch = useDeferredValue(search);
  const serverTerm = useDebounced(deferredSearch.trim(), SERVER_SEARCH_DELAY_MS);

  const spoken = useQuery({
    queryKey: queryKeyOf(catalogueApi.search, { query: { q: serverTerm } }),
    queryFn: ({ signal }) => call(catalogueApi.search, { query: { q: serverTerm } }, { signal }),
    enabled: serverTerm.length >= SEARCH_MIN_SERVER_LENGTH,
    staleTime: 60_000,
    // Offline or failing, the search still answers from what is on the device.
    retry: false,
  });
  const spokenIds = new Set(serverTerm && serverTerm === deferredSearch.trim() ? (spoken.data?.ids ?? []) : []);

  const ordered = freeOnesFirst ? freeFirst(cards ?? []) : (cards ?? []);
  const shown = ordered.filter((card) => matchesShow(card, show, downloaded) && length.test(card.durationSeconds) && (cardMatches(card, deferredSearch) || spokenIds.has(card.id)));

  const update = (key: 'q' | 'length' | 'show', value: string, empty: string) =>
    setParams(
      (current) => {
        if (value === empty) current.delete(key);
        else current.set(key, value);
        return current;
      },
      { replace: true, preventScrollReset: true },
    );

  return {
    search,
    length: length.id,
    show,
    shown,
    filtering: search.trim() !== '' || length.id !== 'any' || show !== null,
    setSearch: (value: string) => update('q', value.slice(0, SEARCH_MAX_LENGTH), ''),
    setLength: (value: LengthFilterId) => update('length', value, 'any'),
    setShow: (value: ShowFilterId | null) => update('show', value ?? '', ''),
    clear: () =>
      setParams(
        (current) => {
          current.delete('q');
          current.delete('length');
          current.delete('show');
          return current;
        },
        { replace: true, preventScrollReset: true },
      ),
  };
}
