/**
 * Every URL a browser context asks for (pages, scripts, styles, fonts, images, audio, API calls,
 * the service worker's own), and those that leave the app's origin: none may (issue 18, item 5).
 */
import type { BrowserContext } from 'playwright-core';

export function recordRequests(context: BrowserContext): string[] {
  const urls: string[] = [];
  context.on('request', (request) => urls.push(request.url()));
  return urls;
}

export function leavingOrigin(urls: readonly string[], appUrl: string): string[] {
  const own = new URL(appUrl).origin;
  return [...new Set(urls.filter((url) => !url.startsWith('data:') && !url.startsWith('blob:') && new URL(url).origin !== own))];
}
