/**
 * Builds the web app when dist/web or dist/ssr (the server's page renderer) is missing or older
 * than any of its sources, so that `npm start` and `npm test` work on a fresh clone with no
 * separate build step.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const SOURCES = ['src/web', 'src/shared', 'scripts/build', 'vite.config.ts', 'package-lock.json'];
const OUTPUTS = ['dist/web/index.html', 'dist/ssr/entry-server.js'];

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
  if (!OUTPUTS.every((output) => existsSync(output))) return true;
  const built = Math.min(...OUTPUTS.map((output) => statSync(output).mtimeMs));
  return SOURCES.some((source) => newestMtime(source) > built);
}

export function buildIfStale({ force = false } = {}) {
  if (!force && !isBuildStale()) return;
  console.log('Building the web app…');
  // Always a production build, whoever asks: a test runner sets NODE_ENV=test, and a page renderer
  // built then would call React's development-only jsxDEV, which the production server lacks.
  const env = { ...process.env, NODE_ENV: 'production' };
  for (const args of [['build'], ['build', '--ssr', 'entry-server.tsx']]) {
    const result = spawnSync(process.execPath, ['node_modules/vite/bin/vite.js', ...args, '--logLevel', 'warn'], { stdio: 'inherit', env });
    if (result.status !== 0) {
      console.error('The web build failed.');
      process.exit(result.status ?? 1);
    }
  }
}
