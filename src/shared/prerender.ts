/**
 * Pages the server prepares as HTML (issue 15: the first paint must not wait for JavaScript), and
 * the data they were rendered with, which travels in the page so the browser's first render is the
 * same and React can adopt the HTML instead of replacing it (hydration).
 */
import { isNamedCategory } from '#shared/catalogue.ts';

/** The id of the `<script type="application/json">` holding the page's data. */
export const PRERENDER_SEED_ID = 'hm-seed';

/** TanStack Query entries, as [queryKey, data] pairs, that the page's first render reads. */
export type PrerenderSeed = { queries: [readonly unknown[], unknown][] };

/** Pages with nothing personal and no data beyond the public catalogue. Keep in step with src/web/routes.tsx. */
const PRERENDERED_PAGES: ReadonlySet<string> = new Set(['/', '/meditations', '/subscribe', '/about', '/support', '/privacy', '/cookies', '/terms', '/why-i-created-harbour-mind']);

/**
 * What the server renders for `pathname`, with the catalogue listing it shows (its slug), or
 * undefined for pages rendered only in the browser (personal pages, unknown categories). Only the
 * catalogue's named listings qualify, so nothing a client sends can fill a cache.
 */
export function prerenderTarget(pathname: string): { listing?: string } | undefined {
  if (PRERENDERED_PAGES.has(pathname)) return { listing: pathname === '/meditations' ? 'all' : undefined };
  const match = /^\/meditations\/([a-z0-9-]+)$/.exec(pathname);
  if (match?.[1] && isNamedCategory(match[1])) return { listing: match[1] };
  return undefined;
}
