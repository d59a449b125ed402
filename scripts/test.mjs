/**
 * `npm test`: every test. Unit + integration (PGlite, and PostgreSQL when reachable), then the
 * web build (when stale) and the end-to-end journeys in Debian's Chromium.
 */
import { spawnSync } from 'node:child_process';
import { buildIfStale } from './build-if-stale.mjs';

const vitest = 'node_modules/vitest/vitest.mjs';
const extra = process.argv.slice(2);

function run(args) {
  const result = spawnSync(process.execPath, args, { stdio: 'inherit', env: { ...process.env, NODE_ENV: 'test' } });
  return result.status ?? 1;
}

const unit = run([vitest, 'run', ...extra]);
buildIfStale();
const e2e = run([vitest, 'run', '--config', 'vitest.e2e.config.ts', ...extra]);

console.log(`\nunit+integration: ${unit === 0 ? 'passed' : 'FAILED'}; e2e: ${e2e === 0 ? 'passed' : 'FAILED'}`);
process.exit(unit || e2e);
