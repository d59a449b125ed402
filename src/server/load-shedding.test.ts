/**
 * Load shedding (issue 13, item 6): while the event loop lags past MAX_EVENT_LOOP_DELAY_MS, requests
 * are answered at once with 503 'server/unavailable' and Retry-After; /api/health still answers, and
 * /api/ready is shed (a load balancer sends traffic elsewhere). Off with 0.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ERROR_TEXT } from '#shared/error-text.ts';
import { SHED_RETRY_AFTER_SECONDS } from '#server/load-shedding.ts';
import { openForSuite } from '#tests/setup/suite-resource.ts';
import { createTestApp, type TestApp } from '#tests/setup/test-app.ts';
import { createTestDatabase } from '#tests/setup/test-db.ts';

// An app per test (its own MAX_EVENT_LOOP_DELAY_MS) over one database.
const database = openForSuite(() => createTestDatabase('pglite'));
let t: TestApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

/**
 * Keeps the event loop busy in slices of `sliceMs` for `totalMs`, yielding between slices so the
 * delay monitor sees one long delay after another (as under a real backlog), not one lone stall.
 */
async function lagEventLoop(totalMs: number, sliceMs: number): Promise<void> {
  const end = Date.now() + totalMs;
  while (Date.now() < end) {
    const sliceEnd = Math.min(end, Date.now() + sliceMs);
    while (Date.now() < sliceEnd) {
      // busy: nothing else runs
    }
    await new Promise((resolve) => setTimeout(resolve, 0));
  }
}

describe('load shedding', () => {
  it('sheds requests with 503, Retry-After and the app error shape while the event loop lags; health still answers', async () => {
    t = await createTestApp({ database, env: { MAX_EVENT_LOOP_DELAY_MS: '50' } });
    // Served while the loop is calm. The sampler measures this process's loop, and on a machine whose two
    // cores are busy with the rest of the suite, the loop itself can lag past 50 ms for a moment (a full
    // run saw 503 here): wait for a calm sample, as a load balancer's next try would, then make the lag.
    const served = async () => (await t!.app.inject({ method: 'GET', url: '/api/meditations?category=all' })).statusCode;
    await expect.poll(served, { timeout: 20_000, interval: 250 }).toBe(200);

    // Past one sampling interval (1 s) of lag in 150 ms slices: the sampled mean is ~150 ms > 50 ms.
    await lagEventLoop(2300, 150);
    const shed = await t.app.inject({ method: 'GET', url: '/api/meditations?category=all' });
    expect(shed.statusCode).toBe(503);
    expect(shed.headers['retry-after']).toBe(String(SHED_RETRY_AFTER_SECONDS));
    expect(shed.json()).toEqual({ error: { code: 'server/unavailable', message: ERROR_TEXT['server/unavailable'] } });
    expect((await t.app.inject({ method: 'GET', url: '/api/ready' })).statusCode).toBe(503);
    const health = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(health.statusCode).toBe(200);
    expect(health.json()).toEqual({ status: 'ok' });

    // Once the loop is calm again (the next samples), requests are served again.
    await expect.poll(served, { timeout: 20_000, interval: 250 }).toBe(200);
  });

  it('is off with MAX_EVENT_LOOP_DELAY_MS=0', async () => {
    t = await createTestApp({ database, env: { MAX_EVENT_LOOP_DELAY_MS: '0' } });
    await lagEventLoop(1300, 150);
    expect((await t.app.inject({ method: 'GET', url: '/api/meditations?category=all' })).statusCode).toBe(200);
  });
});
