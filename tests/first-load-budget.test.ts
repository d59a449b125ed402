/**
 * The first-load budget (non-negotiable 6: at most 120 KB of gzip JavaScript before home, the
 * catalogue and /subscribe can show) checked on every `npm test`, not only when someone runs
 * `npm run bench:bundle`: it had crept to 121.4 KB unnoticed. Reads the build `npm test` makes
 * (builds first when it is missing or older than the sources).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { BUDGET_GZIP, DIST, firstLoad, firstLoadFiles } from '#scripts/bench/first-load.ts';
import { COMPILE_HINT } from '#scripts/build/compile-hints.ts';
import { buildIfStale } from '#scripts/build-if-stale.mjs';

describe('first load', () => {
  it.each(['/', '/meditations/all', '/subscribe'])('of %s stays within 120 KB of gzip JavaScript', (route) => {
    buildIfStale();
    const { gzip } = firstLoad(route);
    expect(gzip, `${route}: ${(gzip / 1024).toFixed(1)} KB gzip`).toBeLessThanOrEqual(BUDGET_GZIP);
  }, 180_000);
});

describe('the boot chunk', () => {
  it("opens with V8's compile hint, as sent and as compressed (scripts/build/compile-hints.ts)", () => {
    buildIfStale();
    const boot = firstLoadFiles('/').find((file) => /(^|\/)boot-[\w-]+\.js$/.test(file));
    expect(boot).toBeDefined();
    const path = join(DIST, boot!);
    expect(readFileSync(path, 'utf8').split('\n', 1)[0]).toBe(COMPILE_HINT);
    expect(gunzipSync(readFileSync(`${path}.gz`)).toString('utf8').split('\n', 1)[0]).toBe(COMPILE_HINT);
  }, 180_000);
});
