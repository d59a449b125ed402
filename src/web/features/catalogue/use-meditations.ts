import { useQuery } from '@tanstack/react-query';
import { catalogueApi, listingQueryKey } from '#shared/contracts/catalogue.routes.ts';
import { call } from '#web/lib/call.ts';

/** A category's listing, under the key a prepared page's data fills (listingQueryKey, prepared-pages.ts). */
export function useMeditations(slug: string) {
  return useQuery({
    queryKey: listingQueryKey(slug),
    queryFn: ({ signal }) => call(catalogueApi.list, { query: { category: slug } }, { signal }),
  });
}
