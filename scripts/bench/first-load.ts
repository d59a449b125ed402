/**
 * The JavaScript a first visit downloads before a page can show, read from the build's manifest
 * (dist/web/.vite/manifest.json): the entry, its static imports, and the route's own lazy chunk
 * with its static imports. Bytes as sent (the .gz and .br the build wrote beside each file).
 * Chunks the app prefetches once the page is idle are not counted: nothing waits for them.
 * Used by `npm run bench:bundle` and `npm run bench:web`.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

export const DIST = 'dist/web';
/** The budget for the first load of home, category and subscribe. */
export const BUDGET_GZIP = 120 * 1024;

type Chunk = { file: string; src?: string; isEntry?: boolean; imports?: string[]; dynamicImports?: string[] };
type Manifest = Partial<Record<string, Chunk>>;
export type FirstLoad = { chunks: number; raw: number; gzip: number; br: number };

/**
 * Each page's own chunk (a source path under src/web, as the manifest names it), or undefined when
 * the entry alone draws it. Keep in step with src/web/routes.tsx.
 */
export const ROUTE_PAGES: Record<string, string | undefined> = {
  '/': 'features/home/home-page.tsx',
  '/meditations/all': 'features/catalogue/meditations-page.tsx',
  '/subscribe': 'features/billing/subscribe-page.tsx',
  '/journal': 'features/journal/journal-page.tsx',
  '/admin': 'features/admin/admin-page.tsx',
};

export function readManifest(dist = DIST): Manifest {
  return JSON.parse(readFileSync(join(dist, '.vite/manifest.json'), 'utf8')) as Manifest;
}

const size = (file: string) => (existsSync(file) ? statSync(file).size : 0);

/** The files of one route's first load: the entry's closure plus the page chunk's closure. */
export function firstLoadFiles(route: string, manifest = readManifest()): string[] {
  const closure = (key: string, into: Set<string>): Set<string> => {
    if (into.has(key) || !manifest[key]) return into;
    into.add(key);
    for (const imported of manifest[key].imports ?? []) closure(imported, into);
    return into;
  };
  // The entry: marked so by Vite, or (when a codeSplitting group holds main.tsx, vite.config.ts) the
  // chunk index.html loads.
  const entryFile = /<script type="module"[^>]*\ssrc="\/([^"]+)"/.exec(readFileSync(join(DIST, 'index.html'), 'utf8'))?.[1];
  const entryKey = Object.keys(manifest).find((key) => manifest[key]?.isEntry) ?? Object.keys(manifest).find((key) => manifest[key]?.file === entryFile);
  if (!entryKey) throw new Error('no entry in the manifest');
  const keys = closure(entryKey, new Set());
  // The app itself is imported by the entry once the first frame is painted (src/web/main.tsx): part of every first load.
  // (With vite.config.ts's `boot` group the manifest names it by its chunk, `_boot-<hash>.js`.)
  for (const dynamic of manifest[entryKey]?.dynamicImports ?? []) if (dynamic.endsWith('boot.tsx') || dynamic.startsWith('_boot-')) closure(dynamic, keys);
  const page = ROUTE_PAGES[route];
  const pageKey = page ? Object.keys(manifest).find((key) => key.endsWith(page)) : undefined;
  if (pageKey) closure(pageKey, keys);
  return [...keys].map((key) => manifest[key]?.file ?? '').filter((file) => file.endsWith('.js'));
}

/** First-load JavaScript of one route, as sent. */
export function firstLoad(route: string, manifest = readManifest(), dist = DIST): FirstLoad {
  const files = firstLoadFiles(route, manifest).map((file) => join(dist, file));
  return {
    chunks: files.length,
    raw: files.reduce((sum, f) => sum + size(f), 0),
    gzip: files.reduce((sum, f) => sum + (size(`${f}.gz`) || size(f)), 0),
    br: files.reduce((sum, f) => sum + (size(`${f}.br`) || size(f)), 0),
  };
}
