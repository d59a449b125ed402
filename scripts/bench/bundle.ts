/**
 * `npm run bench:bundle`: the JavaScript a first visit downloads before a page can show, per route,
 * read from the build's manifest (see first-load.ts), as sent (the .gz and .br the build wrote)
 * against the budget of 120 KB gzip, then what the home page's first load is made of, by
 * package or app folder. Build first (`npm run build`).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { BundleReport } from '../build/bundle-report.ts';
import { BUDGET_GZIP, DIST, firstLoad, firstLoadFiles, readManifest, ROUTE_PAGES } from './first-load.ts';

const manifest = readManifest();
console.log('route'.padEnd(30), 'chunks'.padStart(7), 'raw KB'.padStart(8), 'gzip KB'.padStart(8), 'br KB'.padStart(7), '  budget (gzip 120 KB)');
for (const route of Object.keys(ROUTE_PAGES)) {
  const { chunks, raw, gzip, br } = firstLoad(route, manifest);
  const verdict = gzip <= BUDGET_GZIP ? 'within' : `over by ${((gzip - BUDGET_GZIP) / 1024).toFixed(1)} KB`;
  console.log(route.padEnd(30), String(chunks).padStart(7), (raw / 1024).toFixed(1).padStart(8), (gzip / 1024).toFixed(1).padStart(8), (br / 1024).toFixed(1).padStart(7), `  ${verdict}`);
}

/** What the first load of home is made of (bundle-report.json, written by scripts/build/bundle-report.ts). */
const report = JSON.parse(readFileSync(join(DIST, '.vite/bundle-report.json'), 'utf8')) as Partial<BundleReport>;
const parts = new Map<string, number>();
for (const file of firstLoadFiles('/', manifest)) {
  for (const { part, bytes } of report[file]?.parts ?? []) parts.set(part, (parts.get(part) ?? 0) + bytes);
}
const total = [...parts.values()].reduce((sum, bytes) => sum + bytes, 0);
console.log('\nfirst load of / by part (rendered bytes before minification, share of the whole):');
for (const [part, bytes] of [...parts].sort((a, b) => b[1] - a[1]).slice(0, 15)) {
  console.log(`  ${part.padEnd(34)} ${(bytes / 1024).toFixed(1).padStart(7)} KB ${((100 * bytes) / total).toFixed(1).padStart(5)} %`);
}
