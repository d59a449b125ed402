/**
 * The app's page routes, shared so the server can answer unknown paths with a real 404
 * (and log them) while still serving the single-page app.
 */
import { isListingSlug, slugFromCategoryName } from '#shared/catalogue.ts';

export const PAGE_ROUTE_PATTERNS: readonly RegExp[] = [
  /^\/$/,
  /^\/sign-in$/,
  /^\/sign-up$/,
  /^\/subscribe$/,
  /^\/subscribe\/sandbox-checkout$/,
  /^\/subscribe\/sandbox-portal$/,
  /^\/reset-password$/,
  /^\/verify-email$/,
  /^\/apple-sign-in$/,
  /^\/account$/,
  /^\/profile$/,
  /^\/meditations$/,
  /^\/meditations\/[^/]+$/,
  /^\/meditation\/[^/]+$/,
  /^\/category\/[^/]+$/,
  /^\/journal$/,
  /^\/morning-routine$/,
  /^\/evening-routine$/,
  /^\/why-i-created-harbour-mind$/,
  /^\/about$/,
  /^\/support$/,
  /^\/privacy$/,
  /^\/terms$/,
  /^\/cookies$/,
  /^\/timer$/,
  /^\/breathe$/,
  /^\/programmes$/,
  /^\/programmes\/[^/]+$/,
  /^\/waitlist$/,
  /^\/admin$/,
  /^\/welcome$/,
  /^\/shared\/[^/]+$/,
  /^\/reminders\/off$/,
];

/**
 * Pages search engines must not index (spec: 'robots noindex'): everything personal, the admin
 * dashboard, and one-time links. The public pages stay indexable (docs/decisions/0018).
 */
const NOINDEX_PAGES = /^\/(?:admin|account|profile|journal|morning-routine|evening-routine|reset-password|verify-email|apple-sign-in|sign-in|sign-up|subscribe\/sandbox-checkout|subscribe\/sandbox-portal|welcome|shared\/[^/]+|reminders\/off)\/?$/;

export function isNoIndexPage(pathname: string): boolean {
  return NOINDEX_PAGES.test(pathname);
}

/**
 * A shared journal entry's page (decision 0050): besides noindex, never kept by a cache and never
 * named in a Referer, since its address is half of what opens the entry.
 */
export function isSharedEntryPage(pathname: string): boolean {
  return /^\/shared\/[^/]+\/?$/.test(pathname);
}

/** The listing slug named by /meditations/{slug} or /category/{name}, when the path is one of those. */
function listingSlugOf(path: string): string | null {
  const bySlug = /^\/meditations\/([^/]+)$/.exec(path);
  if (bySlug?.[1]) return safeDecode(bySlug[1]).toLowerCase();
  const byName = /^\/category\/([^/]+)$/.exec(path);
  if (byName?.[1]) return slugFromCategoryName(safeDecode(byName[1]));
  return null;
}

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** True when `pathname` is a page the web app renders (trailing slash tolerated); a listing must name a category. */
export function isKnownPageRoute(pathname: string): boolean {
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  if (!PAGE_ROUTE_PATTERNS.some((pattern) => pattern.test(path))) return false;
  const slug = listingSlugOf(path);
  return slug === null || isListingSlug(slug);
}
