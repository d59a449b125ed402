/**
 * Prepared pages (issue 15): the public pages (home, the catalogue's listings, subscribe and the
 * information pages) are sent as finished HTML, so a phone paints the page as soon as the HTML and
 * the stylesheet arrive instead of after the JavaScript has downloaded and run; React then adopts
 * that HTML (hydration) and the page is live.
 *
 * Each page is rendered by the web app's own code (dist/ssr/entry-server.js, built by
 * `vite build --ssr`) as a visitor who is not signed in sees it, never for a person, and kept in
 * the catalogue's cache as prepared bytes (ETag, brotli, gzip): a catalogue change clears the pages
 * with the listings in every process, and nothing is rendered twice between changes. A page that
 * cannot be rendered falls back to the app shell (the browser renders it), so rendering can only
 * make a page faster, never break it.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { FastifyBaseLogger } from 'fastify';
import { listingQueryKey } from '#shared/contracts/catalogue.routes.ts';
import { PRERENDER_SEED_ID, prerenderTarget, type PrerenderSeed } from '#shared/prerender.ts';
import type { Database } from '#server/db/client.ts';
import type { CatalogueCache } from '#server/features/catalogue/catalogue-cache.ts';
import { preparedListing } from '#server/features/catalogue/catalogue-listing.ts';
import { prepareBytes, type PreparedResponse } from '#server/prepared-response.ts';

type Renderer = { renderPage: (url: string, seed: PrerenderSeed) => Promise<string> };

export type PagePreparer = {
  /** The prepared page for `pathname`, or undefined when the browser renders it (the app shell). */
  page(pathname: string): Promise<PreparedResponse | undefined>;
};

const ROOT = '<div id="root"></div>';

/** JSON inside a script element: `<` escaped so no text (an editor's title) can close the element. */
export function scriptJson(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c').replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');
}

/**
 * The stylesheet in the page itself: a prepared page can then be painted as soon as its HTML has
 * arrived, one round trip sooner than with a render-blocking <link> (~10 KB compressed; the app
 * shell keeps the link, and the browser's cache holds it for the pages it renders itself).
 *
 * Its link stays beside it, disabled: a disabled stylesheet link is never applied (and, in Chromium
 * and Firefox, never fetched), and Vite's preload helper, which adds a lazy chunk's CSS to the page
 * unless a stylesheet link to it is there already, then sees it. Without it, the app's first lazy chunk fetched all 117 KB again and
 * the browser parsed it and restyled the whole page a second time, while a phone was settling (issue 39).
 */
function inlineStylesheet(html: string, distDir: string): string {
  return html.replace(/<link rel="stylesheet"[^>]*href="\/(assets\/[^"]+\.css)"[^>]*>/, (link, file: string) => {
    const css = readFileSync(join(distDir, file), 'utf8');
    return /<\/style/i.test(css) ? link : `<style>${css}</style><link rel="stylesheet" href="/${file}" disabled>`;
  });
}

/**
 * The preparer for a build, or undefined when there is no server renderer (the build predates it,
 * or the web app was built without it): then every page is the app shell, as before.
 */
export async function createPagePreparer({
  distDir,
  ssrDir,
  db,
  cache,
  log,
}: {
  distDir: string;
  ssrDir: string;
  db: Database;
  cache: CatalogueCache;
  log: FastifyBaseLogger;
}): Promise<PagePreparer | undefined> {
  const entry = join(ssrDir, 'entry-server.js');
  const templatePath = join(distDir, 'index.html');
  if (!existsSync(entry) || !existsSync(templatePath)) return undefined;
  const template = inlineStylesheet(readFileSync(templatePath, 'utf8'), distDir);
  if (!template.includes(ROOT)) throw new Error(`${templatePath} has no ${ROOT}`);
  const renderer = (await import(pathToFileURL(entry).href)) as Renderer;

  async function render(pathname: string, target: NonNullable<ReturnType<typeof prerenderTarget>>): Promise<Buffer> {
    const seed: PrerenderSeed = { queries: [] };
    if (target.listing) {
      const listing = await preparedListing({ db, cache, slug: target.listing });
      // The key the web's listing reads (use-meditations.ts), from the same function.
      seed.queries.push([listingQueryKey(target.listing), JSON.parse(listing.identity.toString('utf8'))]);
    }
    const body = await renderer.renderPage(pathname, seed);
    // A part that suspended or failed would need React's inline scripts to finish, which the CSP
    // forbids: then the browser renders the page itself.
    if (/<script|<template/i.test(body)) throw new Error('the render left a part unfinished');
    const html = template
      .replace(ROOT, `<div id="root">${body}</div><script type="application/json" id="${PRERENDER_SEED_ID}">${scriptJson(seed)}</script>`);
    return Buffer.from(html);
  }

  return {
    async page(pathname) {
      const target = prerenderTarget(pathname);
      if (!target) return undefined;
      try {
        return await cache.get(`page:${pathname}`, () => render(pathname, target), (html) => prepareBytes(html, 'text/html; charset=utf-8'));
      } catch (error) {
        log.error({ err: error, path: pathname }, 'page could not be prepared; sending the app shell');
        return undefined;
      }
    },
  };
}
