/** The background job every server process runs its reminders, sweeps and retries with. */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { startBackgroundJob } from '#server/background-job.ts';

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('startBackgroundJob', () => {
  it('runs first after start-up, then on every tick, never beside a run still under way', async () => {
    let finish: () => void = () => undefined;
    const run = vi.fn(() => new Promise<void>((resolve) => (finish = resolve)));
    const stop = startBackgroundJob({ log: { error: vi.fn() }, failure: 'job failed', everyMs: 1_000, firstAfterMs: 200, run });
    await vi.advanceTimersByTimeAsync(199);
    expect(run).toHaveBeenCalledTimes(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(run).toHaveBeenCalledTimes(1);
    // The first run outlasts two ticks: no second run starts beside it.
    await vi.advanceTimersByTimeAsync(2_000);
    expect(run).toHaveBeenCalledTimes(1);
    finish();
    await vi.advanceTimersByTimeAsync(1_000);
    expect(run).toHaveBeenCalledTimes(2);
    finish();
    await stop();
  });

  it('logs a failed run in its own words and tries again at the next tick', async () => {
    const log = { error: vi.fn() };
    const run = vi.fn().mockRejectedValueOnce(new Error('database gone')).mockResolvedValue(undefined);
    const stop = startBackgroundJob({ log, failure: 'sweep failed; will retry', everyMs: 1_000, run });
    await vi.advanceTimersByTimeAsync(1_000);
    expect(log.error).toHaveBeenCalledWith({ err: { message: 'database gone' } }, 'sweep failed; will retry');
    await vi.advanceTimersByTimeAsync(1_000);
    expect(run).toHaveBeenCalledTimes(2);
    await stop();
  });

  it('stops: waits for the run under way, and starts none after', async () => {
    let finish: () => void = () => undefined;
    let finished = false;
    const run = vi.fn(() => new Promise<void>((resolve) => (finish = resolve)).then(() => (finished = true)));
    const stop = startBackgroundJob({ log: { error: vi.fn() }, failure: 'job failed', everyMs: 1_000, run });
    await vi.advanceTimersByTimeAsync(1_000);
    const stopped = stop();
    finish();
    await stopped;
    expect(finished).toBe(true);
    await vi.advanceTimersByTimeAsync(5_000);
    expect(run).toHaveBeenCalledTimes(1);
  });
});
