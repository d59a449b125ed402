/**
 * `npm run bench:bundle`: the JavaScript a first visit downloads before a page can show, per route,
 * read from the build's manifest (dist/web/.vite/manifest.json): the entry, its static imports, and
 * the route's own lazy chunk with its static imports. Bytes as sent (the .gz and .br the build wrote)
 * against the budget of 120 KB gzip. Build first (`npm run build`).
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

const DIST = 'dist/web';
const BUDGET_GZIP = 120 * 1024;
type Chunk = { file: string; src?: string; isEntry?: boolean; imports?: string[]; dynamicImports?: string[] };
const manifest = JSON.parse(readFileSync(join(DIST, '.vite/manifest.json'), 'utf8')) as Partial<Record<string, Chunk>>;

/** A chunk and everything it imports statically (what loads before it runs). */
function closure(key: string, into = new Set<string>()): Set<string> {
  if (into.has(key)) return into;
  into.add(key);
  for (const imported of manifest[key]?.imports ?? []) closure(imported, into);
  return into;
}

const size = (file: string) => (existsSync(file) ? statSync(file).size : 0);
const entryKey = Object.keys(manifest).find((key) => manifest[key]?.isEntry);
if (!entryKey) throw new Error('no entry in the manifest');
const routes: Record<string, string | undefined> = {
  '/ (home)': undefined,
  '/meditations/all (category)': undefined,
  '/subscribe': 'features/billing/subscribe-page.tsx',
  '/journal': 'features/journal/journal-page.tsx',
  '/admin': 'features/admin/admin-page.tsx',
};

console.log('route'.padEnd(30), 'chunks'.padStart(7), 'raw KB'.padStart(8), 'gzip KB'.padStart(8), 'br KB'.padStart(7), '  budget (gzip 120 KB)');
for (const [route, page] of Object.entries(routes)) {
  const keys = closure(entryKey);
  if (page) {
    const pageKey = Object.keys(manifest).find((key) => key.endsWith(page));
    if (pageKey) closure(pageKey, keys);
  }
  const files = [...keys].map((key) => join(DIST, manifest[key]?.file ?? '')).filter((file) => file.endsWith('.js'));
  const raw = files.reduce((sum, f) => sum + size(f), 0);
  const gzip = files.reduce((sum, f) => sum + (size(`${f}.gz`) || size(f)), 0);
  const br = files.reduce((sum, f) => sum + (size(`${f}.br`) || size(f)), 0);
  const verdict = gzip <= BUDGET_GZIP ? 'within' : `over by ${((gzip - BUDGET_GZIP) / 1024).toFixed(1)} KB`;
  console.log(route.padEnd(30), String(files.length).padStart(7), (raw / 1024).toFixed(1).padStart(8), (gzip / 1024).toFixed(1).padStart(8), (br / 1024).toFixed(1).padStart(7), `  ${verdict}`);
}
