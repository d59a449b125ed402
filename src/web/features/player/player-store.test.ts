import { describe, expect, it, vi } from 'vitest';
import { initialPlayerState } from '#web/features/player/player-machine.ts';
import { createPlayerStore } from '#web/features/player/player-store.ts';
import { meditationCard } from '#tests/meditation-cards.ts';

const track = meditationCard('a');

const playing = () => {
  const store = createPlayerStore(initialPlayerState);
  store.dispatch({ type: 'start', meditation: track, queue: [track], playId: 'p1' });
  store.dispatch({ type: 'playing' });
  return store;
};

describe('player store', () => {
  it('keeps the view (track, status, actions’ inputs) the same object while only the position moves', () => {
    const store = playing();
    const view = store.getView();
    const progress = store.getProgress();
    store.dispatch({ type: 'time', currentTime: 1.25, duration: 120 });
    expect(store.getView()).toBe(view);
    expect(store.getProgress()).not.toBe(progress);
    expect(store.getProgress()).toEqual({ currentTime: 1.25, duration: 120 });
    expect(store.getState()).toMatchObject({ status: 'playing', currentTime: 1.25 });
  });

  it('gives a new view when anything but the position changes, and keeps the progress object then', () => {
    const store = playing();
    const view = store.getView();
    const progress = store.getProgress();
    store.dispatch({ type: 'paused' });
    expect(store.getView()).not.toBe(view);
    expect(store.getView().status).toBe('paused');
    expect(store.getProgress()).toBe(progress);
  });

  it('tells subscribers about changes only, and stops when they unsubscribe', () => {
    const store = playing();
    const listener = vi.fn();
    const unsubscribe = store.subscribe(listener);
    store.dispatch({ type: 'playing' }); // already playing: same status, new state object
    store.dispatch({ type: 'minimise' });
    store.dispatch({ type: 'expand' });
    const calls = listener.mock.calls.length;
    expect(calls).toBeGreaterThan(0);
    store.dispatch({ type: 'close' });
    unsubscribe();
    store.dispatch({ type: 'time', currentTime: 3, duration: 120 });
    expect(listener).toHaveBeenCalledTimes(calls + 1);
  });

  it('leaves state untouched when the machine ignores an action', () => {
    const store = createPlayerStore(initialPlayerState);
    const listener = vi.fn();
    store.subscribe(listener);
    store.dispatch({ type: 'time', currentTime: 5, duration: 10 }); // nothing loaded
    expect(listener).not.toHaveBeenCalled();
    expect(store.getState()).toBe(initialPlayerState);
  });
});
