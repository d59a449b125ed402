// @vitest-environment jsdom
/**
 * The journal's lock (issue 36, item 1; decision 0054): the opened key lives in the page's memory
 * only, and is let go after the idle time the person chose (default 15 minutes), counted from the last
 * pointer, keyboard or touch activity, at once when the app comes back from the background after that
 * long, and by the button. Fake timers and a fake clock: no real waiting.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { JOURNAL_LOCK_AFTER } from '#shared/journal-keys.ts';
import { watchIdle } from '#web/lib/idle-watch.ts';
import { watchAppState, type AppStatePluginLike } from '#web/platform/app-state.ts';

const MINUTE = 60_000;

beforeEach(() => {
  vi.useFakeTimers({ now: new Date('2026-11-28T09:00:00Z') });
  localStorage.clear();
});
afterEach(() => {
  vi.useRealTimers();
  vi.resetModules();
});

/** A fresh copy of the lock module, as a newly opened page has. */
async function freshLock() {
  vi.resetModules();
  return import('#web/features/journal/journal-lock.ts');
}

const key = () => ({}) as CryptoKey;

describe('the journal key held in memory', () => {
  it('locks after 15 minutes without activity by default, and not a moment before', async () => {
    const lock = await freshLock();
    const changes = vi.fn();
    lock.onLockChange(changes);
    lock.holdKey('ann', key());
    expect(lock.heldKey('ann')).not.toBeNull();
    expect(lock.heldKey('bo')).toBeNull();
    vi.advanceTimersByTime(15 * MINUTE - 1);
    expect(lock.heldKey('ann')).not.toBeNull();
    vi.advanceTimersByTime(1);
    expect(lock.heldKey('ann')).toBeNull();
    expect(changes).toHaveBeenCalledTimes(2); // unlocked, then locked
  });

  it('counts idle time from the last pointer, keyboard or touch activity', async () => {
    const lock = await freshLock();
    lock.holdKey('ann', key());
    for (const type of ['pointermove', 'keydown', 'touchstart', 'pointerdown', 'wheel']) {
      vi.advanceTimersByTime(14 * MINUTE);
      window.dispatchEvent(new Event(type));
    }
    // 70 minutes after unlocking, just after the last activity: still open, until 15 quiet minutes have passed.
    expect(lock.heldKey('ann')).not.toBeNull();
    vi.advanceTimersByTime(15 * MINUTE - 1);
    expect(lock.heldKey('ann')).not.toBeNull();
    vi.advanceTimersByTime(1);
    expect(lock.heldKey('ann')).toBeNull();
    // Activity after locking opens nothing again.
    window.dispatchEvent(new Event('keydown'));
    expect(lock.heldKey('ann')).toBeNull();
  });

  it('uses the idle time chosen on this device, remembers it, and falls back to 15 minutes for anything else', async () => {
    let lock = await freshLock();
    expect(lock.lockAfterMinutes()).toBe(JOURNAL_LOCK_AFTER.defaultMinutes);
    lock.holdKey('ann', key());
    vi.advanceTimersByTime(3 * MINUTE);
    // Changed while open: counted afresh from the change.
    lock.setLockAfterMinutes(1);
    expect(localStorage.getItem(JOURNAL_LOCK_AFTER.storageKey)).toBe('1');
    vi.advanceTimersByTime(MINUTE - 1);
    expect(lock.heldKey('ann')).not.toBeNull();
    vi.advanceTimersByTime(1);
    expect(lock.heldKey('ann')).toBeNull();

    // The next page on this device keeps the choice.
    lock = await freshLock();
    expect(lock.lockAfterMinutes()).toBe(1);
    for (const stored of ['7', 'soon', '', '-1']) {
      localStorage.setItem(JOURNAL_LOCK_AFTER.storageKey, stored);
      expect(lock.lockAfterMinutes()).toBe(15);
    }
    for (const choice of [1, 5, 15, 30, 60]) {
      lock.setLockAfterMinutes(choice);
      expect(lock.lockAfterMinutes()).toBe(choice);
    }
  });

  it('locks by hand, for every view of the journal, and holds one account at a time', async () => {
    const lock = await freshLock();
    const changes = vi.fn();
    const timersBefore = vi.getTimerCount();
    lock.holdKey('ann', key());
    lock.onLockChange(changes);
    lock.holdKey('bo', key());
    expect(lock.heldKey('ann')).toBeNull();
    lock.lockJournal();
    expect(lock.heldKey('bo')).toBeNull();
    expect(changes).toHaveBeenCalledTimes(2);
    // Nothing held: nothing to announce, and no idle watch left running.
    lock.lockJournal();
    expect(changes).toHaveBeenCalledTimes(2);
    expect(vi.getTimerCount()).toBe(timersBefore);
  });

  it('is never written to the device: nothing in local or session storage holds it', async () => {
    const lock = await freshLock();
    lock.holdKey('ann', key());
    lock.setLockAfterMinutes(30);
    expect(Object.keys(localStorage)).toEqual([JOURNAL_LOCK_AFTER.storageKey]);
    expect(sessionStorage.length).toBe(0);
  });
});

describe('idle watch and the app in the background', () => {
  /** A watch of five minutes' idle time whose app has just gone to the background; `appState` says when it is active again. */
  function watchInBackground() {
    let appState: (active: boolean) => void = () => undefined;
    const onIdle = vi.fn();
    const stop = watchIdle({ idleMs: 5 * MINUTE, onIdle, appState: (listener) => ((appState = listener), () => undefined) });
    appState(false);
    return { appState: (active: boolean) => appState(active), onIdle, stop };
  }

  it('locks as soon as the app comes back after longer than the idle time in the background, before any late timer', () => {
    const { appState, onIdle, stop } = watchInBackground();
    // A backgrounded app's timers do not run: the clock moves on without them.
    vi.setSystemTime(Date.now() + 6 * MINUTE);
    expect(onIdle).not.toHaveBeenCalled();
    appState(true);
    expect(onIdle).toHaveBeenCalledTimes(1);
    stop();
  });

  it('keeps the journal open after a short time in the background', () => {
    const { appState, onIdle, stop } = watchInBackground();
    vi.setSystemTime(Date.now() + 2 * MINUTE);
    appState(true);
    expect(onIdle).not.toHaveBeenCalled();
    vi.advanceTimersByTime(3 * MINUTE);
    expect(onIdle).toHaveBeenCalledTimes(1);
    stop();
  });

  it('hears @capacitor/app’s appStateChange inside the apps, and stops listening when asked', async () => {
    const listeners = new Set<(event: { isActive: boolean }) => void>();
    const plugin: AppStatePluginLike = {
      addListener: (_event, listener) => {
        listeners.add(listener);
        return Promise.resolve({ remove: () => Promise.resolve(void listeners.delete(listener)) });
      },
    };
    const seen: boolean[] = [];
    const stop = watchAppState((active) => seen.push(active), { native: true, loadPlugin: () => Promise.resolve(plugin) });
    await vi.waitFor(() => expect(listeners.size).toBe(1), { timeout: 10_000 });
    for (const listener of listeners) listener({ isActive: false });
    for (const listener of listeners) listener({ isActive: true });
    expect(seen).toEqual([false, true]);
    stop();
    await vi.waitFor(() => expect(listeners.size).toBe(0), { timeout: 10_000 });
  });

  it('on the web, hears the page becoming hidden and visible', () => {
    const seen: boolean[] = [];
    const stop = watchAppState((active) => seen.push(active), { native: false });
    let state: DocumentVisibilityState = 'hidden';
    vi.spyOn(document, 'visibilityState', 'get').mockImplementation(() => state);
    document.dispatchEvent(new Event('visibilitychange'));
    state = 'visible';
    document.dispatchEvent(new Event('visibilitychange'));
    stop();
    document.dispatchEvent(new Event('visibilitychange'));
    expect(seen).toEqual([false, true]);
  });
});
