/**
 * Builds the web app when dist/web is missing or older than any of its sources, so that
 * `npm start` and `npm test` work on a fresh clone with no separate build step.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const SOURCES = ['src/web', 'src/shared', 'scripts/build', 'vite.config.ts', 'package-lock.json'];
const OUTPUT = 'dist/web/index.html';

function newestMtime(path) {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of readdirSync(path)) {
    if (entry === 'node_modules') continue;
    newest = Math.max(newest, newestMtime(join(path, entry)));
  }
  return newest;
}

export function isBuildStale() {
  if (!existsSync(OUTPUT)) return true;
  const built = statSync(OUTPUT).mtimeMs;
  return SOURCES.some((source) => newestMtime(source) > built);
}

export function buildIfStale({ force = false } = {}) {
  if (!force && !isBuildStale()) return;
  console.log('Building the web app…');
  const result = spawnSync(process.execPath, ['node_modules/vite/bin/vite.js', 'build', '--logLevel', 'warn'], { stdio: 'inherit' });
  if (result.status !== 0) {
    console.error('The web build failed.');
    process.exit(result.status ?? 1);
  }
}
