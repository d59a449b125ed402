/**
 * Android's media controls (issue 19, item 6), through a local fake of
 * @capgo/capacitor-media-session's `MediaSession` plugin (its method names and option shapes).
 */
import { describe, expect, it, vi } from 'vitest';
import { createNativeMediaControls, type MediaSessionPluginLike } from '#web/platform/native-media-controls.ts';

function fakePlugin() {
  const calls: [string, unknown][] = [];
  const handlers = new Map<string, ((details: { action: string; seekTime?: number | null }) => void) | null>();
  let release: () => void = () => undefined;
  const slowStart = new Promise<void>((resolve) => (release = resolve));
  const plugin: MediaSessionPluginLike = {
    setMetadata: (options) => Promise.resolve(void calls.push(['setMetadata', options])),
    // The first state change waits on the service starting: later calls must still arrive after it.
    setPlaybackState: async (options) => {
      if (!calls.some(([name]) => name === 'setPlaybackState')) await slowStart;
      calls.push(['setPlaybackState', options]);
    },
    setPositionState: (options) => {
      if (!(options.duration && options.duration > 0)) return Promise.reject(new Error('Invalid duration'));
      return Promise.resolve(void calls.push(['setPositionState', options]));
    },
    setActionHandler: (options, handler) => {
      handlers.set(options.action, handler as never);
      return Promise.resolve(void calls.push(['setActionHandler', options]));
    },
  };
  return { plugin, calls, handlers, release: () => release() };
}

describe('media controls on Android', () => {
  it('tells the plugin in the order the player spoke, with artwork from the server, and passes actions back', async () => {
    const fake = fakePlugin();
    const load = vi.fn(() => Promise.resolve(fake.plugin));
    const controls = createNativeMediaControls(load, (path) => `https://api.example${path}`);
    controls.setMetadata({ title: 'Falling Asleep', artist: 'Harbour Mind', album: 'Sleep', artwork: [{ src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png' }] });
    controls.setPlaybackState('playing');
    controls.setPositionState({ duration: 600, position: 12, playbackRate: 1 });
    const seekTo = vi.fn();
    controls.setActionHandler('seekto', seekTo);
    controls.setActionHandler('nexttrack', null);
    fake.release();
    await vi.waitFor(() => expect(fake.calls).toHaveLength(5), { timeout: 10_000 });
    expect(fake.calls).toEqual([
      ['setMetadata', { title: 'Falling Asleep', artist: 'Harbour Mind', album: 'Sleep', artwork: [{ src: 'https://api.example/icons/icon-192.png', sizes: '192x192', type: 'image/png' }] }],
      ['setPlaybackState', { playbackState: 'playing' }],
      ['setPositionState', { duration: 600, position: 12, playbackRate: 1 }],
      ['setActionHandler', { action: 'seekto' }],
      ['setActionHandler', { action: 'nexttrack' }],
    ]);
    expect(load).toHaveBeenCalledTimes(1);
    fake.handlers.get('seekto')?.({ action: 'seekto', seekTime: 42 });
    expect(seekTo).toHaveBeenCalledWith({ seekTime: 42 });
    expect(fake.handlers.get('nexttrack')).toBeNull();
  });

  it('keeps going after the plugin refuses a call, and sends nothing for cleared metadata', async () => {
    const fake = fakePlugin();
    fake.release();
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const controls = createNativeMediaControls(() => Promise.resolve(fake.plugin), (path) => path);
    controls.setPositionState({ duration: 0, position: 0, playbackRate: 1 });
    controls.setMetadata(null);
    controls.setPlaybackState('none');
    await vi.waitFor(() => expect(fake.calls).toEqual([['setPlaybackState', { playbackState: 'none' }]]), { timeout: 10_000 });
    expect(warn).toHaveBeenCalledWith('media controls', expect.any(Error));
    warn.mockRestore();
  });
});
