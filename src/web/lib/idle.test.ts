/**
 * Idle work outliving its page. The web tests share a process (vitest.config.ts), so a chain of idle
 * prefetches started by one file's render can reach its next step after that file's document is gone:
 * it threw there ("window is not defined"), an unhandled rejection that failed the whole unit half.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { nextIdle, whenIdle } from '#web/lib/idle.ts';

afterEach(() => vi.unstubAllGlobals());

const settled = (promise: Promise<unknown>) =>
  Promise.race([promise.then(() => 'resolved', (error: unknown) => `rejected: ${String(error)}`), new Promise((resolve) => setTimeout(() => resolve('waiting'), 50))]);

describe('idle work without a window (the page is gone)', () => {
  it('nextIdle waits for ever instead of throwing', async () => {
    vi.stubGlobal('window', undefined);
    expect(await settled(nextIdle())).toBe('waiting');
  });

  it('whenIdle does not schedule the task', async () => {
    vi.stubGlobal('window', undefined);
    const task = vi.fn();
    whenIdle(task);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(task).not.toHaveBeenCalled();
  });
});

describe('idle work in a page', () => {
  it('nextIdle resolves at the next idle moment', async () => {
    vi.stubGlobal('window', { requestIdleCallback: (callback: () => void) => setTimeout(callback, 0) });
    expect(await settled(nextIdle())).toBe('resolved');
  });
});
