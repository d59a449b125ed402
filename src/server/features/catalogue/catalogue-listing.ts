import { listMeditationsResponse } from '#shared/contracts/catalogue.ts';
import type { Database } from '#server/db/client.ts';
import type { CatalogueCache } from '#server/features/catalogue/catalogue-cache.ts';
import { listMeditations } from '#server/features/catalogue/catalogue.service.ts';

/**
 * One of the catalogue's named listings, prepared once per change. The API sends these bytes and the
 * pages the server prepares embed the same data, so a page and a later API read never disagree.
 * Passed through the contract before it is kept: the cached bytes hold only what the schema names.
 */
export function preparedListing({ db, cache, slug }: { db: Database; cache: CatalogueCache; slug: string }) {
  return cache.get(`list:${slug}`, async () => listMeditationsResponse.parse(await listMeditations({ db, slug })));
}
