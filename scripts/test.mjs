/**
 * `npm test`: every check and every test. First the static checks (TypeScript, ESLint, knip: any
 * finding fails the run), then unit + integration (PGlite, and PostgreSQL when reachable), then the
 * web build (when stale), `cap sync` of the native shells (issue 19), and the end-to-end journeys in Debian's Chromium. Everything runs even when
 * an early step fails, so one run reports all that is wrong; the exit code is non-zero if anything failed.
 */
import { spawnSync } from 'node:child_process';
import { buildIfStale } from './build-if-stale.mjs';

const bin = (name) => `node_modules/${name}`;
const extra = process.argv.slice(2);

function run(label, args) {
  const started = Date.now();
  const result = spawnSync(process.execPath, args, { stdio: 'inherit', env: { ...process.env, NODE_ENV: 'test' } });
  const ok = result.status === 0;
  console.log(`\n${label}: ${ok ? 'passed' : 'FAILED'} in ${((Date.now() - started) / 1000).toFixed(0)} s\n`);
  return { label, ok };
}

const steps = [];
// Static checks only for a whole run: `npm test -- some/file.test.ts` runs just the tests asked for.
if (extra.length === 0) {
  steps.push(run('typecheck', [bin('typescript/bin/tsc'), '--noEmit', '-p', '.']));
  steps.push(run('eslint', [bin('eslint/bin/eslint.js'), '.', '--max-warnings=0']));
  steps.push(run('knip', [bin('knip/bin/knip.js')]));
}
steps.push(run('unit+integration', [bin('vitest/vitest.mjs'), 'run', ...extra]));
buildIfStale();
// The native projects take the fresh build: a broken capacitor.config.ts or project fails here.
if (extra.length === 0) steps.push(run('native sync', ['scripts/native.mjs', 'sync']));
steps.push(run('e2e', [bin('vitest/vitest.mjs'), 'run', '--config', 'vitest.e2e.config.ts', ...extra]));

console.log(steps.map((s) => `${s.label}: ${s.ok ? 'passed' : 'FAILED'}`).join('; '));
process.exit(steps.every((s) => s.ok) ? 0 : 1);
