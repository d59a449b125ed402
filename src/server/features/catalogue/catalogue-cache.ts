/**
 * The public catalogue as prepared answers in memory. It changes only when an editor uploads,
 * edits or deletes, so each listing and card is read, serialised and compressed once per change and
 * then served from memory (prepared-response.ts: ETag, 304, brotli/gzip by negotiation).
 *
 * Freshness: every catalogue write calls `changed()` (catalogue-changes.ts), which clears this
 * process at once and tells every other process through the database (NOTIFY). A load that was
 * already running when a change arrived answers its own request but is not kept, so it cannot put
 * the old list back. Entries also expire after `maxAgeMs`: a missed notification (a dropped
 * listening connection) costs seconds of staleness, never hours.
 *
 * Size: at most `maxEntries` answers; past it the least recently read is dropped. The keys come
 * from a closed set (named listings, known pages, cards of existing meditations by their canonical
 * id), so the bound is never reached in use: it is there so that no spelling anyone finds can grow
 * the process's memory (issue 33, row 5: 4 096 case variants of every card id were 4 096 entries).
 */
import { prepareJson, type PreparedResponse } from '#server/prepared-response.ts';

/** The channel migration 0006's trigger notifies on every change to the catalogue tables. */
export const CATALOGUE_CHANNEL = 'hm_catalogue';

/** `ready` is the answer once it is made and still current (what `peek` may hand out). */
type Entry = { value: Promise<PreparedResponse>; madeAt: number; ready?: PreparedResponse };

export type CatalogueCache = {
  /**
   * The prepared answer for `key`, loading it with `load` when absent, stale or superseded; the
   * value becomes JSON unless `prepare` says otherwise (pages built from the catalogue are HTML).
   */
  get<T>(key: string, load: () => Promise<T>, prepare?: (value: T) => Promise<PreparedResponse>): Promise<PreparedResponse>;
  /**
   * The answer for `key` when it is already made and fresh, without loading: the prepared lane's
   * lookup (prepared-lane.ts). Anything else (absent, loading, stale) is for `get`.
   */
  peek(key: string): PreparedResponse | undefined;
  /** Forget everything: the next read of each key loads again. */
  invalidate(): void;
  readonly size: number;
};

/** Far above the answers a catalogue has (a card per meditation, a dozen listings and pages). */
const CATALOGUE_CACHE_MAX_ENTRIES = 2000;

export function createCatalogueCache({
  maxAgeMs = 60_000,
  maxEntries = CATALOGUE_CACHE_MAX_ENTRIES,
  now = Date.now,
}: { maxAgeMs?: number; maxEntries?: number; now?: () => number } = {}): CatalogueCache {
  // A Map keeps insertion order: the first key is the least recently read one.
  const entries = new Map<string, Entry>();
  let generation = 0;

  return {
    get(key, load, prepare = prepareJson) {
      const entry = entries.get(key);
      if (entry && now() - entry.madeAt < maxAgeMs) {
        // Read again: now the most recent.
        entries.delete(key);
        entries.set(key, entry);
        return entry.value;
      }
      const startedIn = generation;
      const value = load().then(prepare);
      const made: Entry = { value, madeAt: now() };
      entries.delete(key);
      entries.set(key, made);
      while (entries.size > maxEntries) {
        const oldest = entries.keys().next().value;
        if (oldest === undefined) break;
        entries.delete(oldest);
      }
      value.then(
        (prepared) => {
          // A change arrived while this was loading: it may hold the old catalogue.
          if (generation !== startedIn) {
            if (entries.get(key) === made) entries.delete(key);
          } else made.ready = prepared;
        },
        () => {
          // Failures are not kept: the next request tries again.
          if (entries.get(key) === made) entries.delete(key);
        },
      );
      return value;
    },
    peek(key) {
      const entry = entries.get(key);
      return entry && now() - entry.madeAt < maxAgeMs ? entry.ready : undefined;
    },
    invalidate() {
      generation += 1;
      entries.clear();
    },
    get size() {
      return entries.size;
    },
  };
}
