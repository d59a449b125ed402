/**
 * The app's page routes, shared so the server can answer unknown paths with a real 404
 * (and log them) while still serving the single-page app.
 */
export const PAGE_ROUTE_PATTERNS: readonly RegExp[] = [
  /^\/$/,
  /^\/sign-in$/,
  /^\/sign-up$/,
  /^\/subscribe$/,
  /^\/subscribe\/sandbox-checkout$/,
  /^\/subscribe\/sandbox-portal$/,
  /^\/reset-password$/,
  /^\/verify-email$/,
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
  /^\/waitlist$/,
  /^\/admin$/,
];

/** True when `pathname` is a page the web app renders (trailing slash tolerated). */
export function isKnownPageRoute(pathname: string): boolean {
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  return PAGE_ROUTE_PATTERNS.some((pattern) => pattern.test(path));
}
