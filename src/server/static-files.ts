/**
 * The built web app's files (dist/web), held in memory as prepared answers (issue 15): read once at
 * start with the brotli and gzip copies the build wrote beside them (scripts/build/precompress.ts),
 * each with a strong ETag, so a request is a lookup and one socket write instead of a stat, an open
 * and a read stream per request (the entry script went out at a third of a bare server's rate).
 * The build is a few megabytes and never changes while the process runs (deploys restart it).
 *
 * /index.html is among them (the service worker precaches the app shell by that name; pages are
 * answered by web-app.ts); nothing under a dot folder is (Vite's .vite/manifest.json is for the
 * server, not the public).
 */
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { extname, join, relative, sep } from 'node:path';
import { etagOf, type PreparedResponse } from '#server/prepared-response.ts';

/** What the build emits, by extension; anything else is sent as opaque bytes. */
const CONTENT_TYPES: Readonly<Record<string, string>> = {
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.html': 'text/html; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.webmanifest': 'application/manifest+json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
  '.mp3': 'audio/mpeg',
};

/** The build's hashed files (scripts, styles, fonts, images; never a document): immutable, uncounted by the global brake, sent without the document-only headers. */
export const isHashedAsset = (path: string | undefined): boolean => path !== undefined && path.startsWith('/assets/');

/** Hashed build output is immutable; the service worker and its manifest must be re-checked on every visit so updates arrive. */
function cacheControlFor(urlPath: string): string {
  if (isHashedAsset(urlPath)) return 'public, max-age=31536000, immutable';
  if (/^\/(?:sw\.js|registerSW\.js|manifest\.webmanifest|index\.html)$/.test(urlPath)) return 'no-cache';
  return 'public, max-age=300';
}

export type StaticFile = { prepared: PreparedResponse; cacheControl: string };

function filesUnder(root: string, dir = root): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (entry.name.startsWith('.')) return [];
    const path = join(dir, entry.name);
    return entry.isDirectory() ? filesUnder(root, path) : [path];
  });
}

/** Every servable file of the build by URL path (`/assets/index-3f2a9c1b.js`). */
export function loadStaticFiles(distDir: string): Map<string, StaticFile> {
  const files = new Map<string, StaticFile>();
  for (const path of filesUnder(distDir)) {
    if (/\.(?:br|gz)$/.test(path)) continue;
    const urlPath = `/${relative(distDir, path).split(sep).join('/')}`;
    const identity = readFileSync(path);
    const copy = (suffix: string) => (existsSync(path + suffix) ? readFileSync(path + suffix) : undefined);
    const prepared: PreparedResponse = {
      contentType: CONTENT_TYPES[extname(path).toLowerCase()] ?? 'application/octet-stream',
      etag: etagOf(identity),
      identity,
      br: copy('.br'),
      gzip: copy('.gz'),
    };
    files.set(urlPath, { prepared, cacheControl: cacheControlFor(urlPath) });
  }
  return files;
}
