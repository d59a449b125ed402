/**
 * The first-load budget (non-negotiable 6: at most 120 KB of gzip JavaScript before home, the
 * catalogue and /subscribe can show) checked on every `npm test`, not only when someone runs
 * `npm run bench:bundle`: it had crept to 121.4 KB unnoticed. Reads the build `npm test` makes
 * (builds first when it is missing or older than the sources).
 */
import { describe, expect, it } from 'vitest';
import { BUDGET_GZIP, firstLoad } from '#scripts/bench/first-load.ts';
import { buildIfStale } from '#scripts/build-if-stale.mjs';

describe('first load', () => {
  it.each(['/', '/meditations/all', '/subscribe'])('of %s stays within 120 KB of gzip JavaScript', (route) => {
    buildIfStale();
    const { gzip } = firstLoad(route);
    expect(gzip, `${route}: ${(gzip / 1024).toFixed(1)} KB gzip`).toBeLessThanOrEqual(BUDGET_GZIP);
  }, 180_000);
});
