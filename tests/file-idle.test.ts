/**
 * The web test files' idle callbacks (tests/setup/file-idle.ts): a file's idle work never runs after
 * that file has ended, where it once imported modules into the next file before its mocks existed.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { IDLE_DELAY_MS, fileIdle } from './setup/file-idle.ts';

afterEach(() => vi.useRealTimers());

describe('fileIdle', () => {
  it('runs a callback at the idle moment while its file is running', () => {
    vi.useFakeTimers();
    const idle = fileIdle();
    const callback = vi.fn();
    idle.requestIdleCallback(callback);
    vi.advanceTimersByTime(IDLE_DELAY_MS);
    expect(callback).toHaveBeenCalledOnce();
  });

  it('drops what a file left waiting once it has ended', () => {
    vi.useFakeTimers();
    const idle = fileIdle();
    const callback = vi.fn();
    idle.requestIdleCallback(callback);
    idle.close();
    vi.advanceTimersByTime(IDLE_DELAY_MS * 10);
    expect(callback).not.toHaveBeenCalled();
  });

  it('can be cancelled', () => {
    vi.useFakeTimers();
    const idle = fileIdle();
    const callback = vi.fn();
    idle.cancelIdleCallback(idle.requestIdleCallback(callback));
    vi.advanceTimersByTime(IDLE_DELAY_MS);
    expect(callback).not.toHaveBeenCalled();
  });
});
