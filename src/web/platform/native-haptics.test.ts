/**
 * The apps' haptics (issue 37, item 1) through a local fake of @capacitor/haptics' `Haptics` plugin
 * (its light impact): one per tap, the plugin loaded once, on first use.
 */
import { describe, expect, it, vi } from 'vitest';
import { createNativeHaptics, type HapticsLike } from '#web/platform/native-haptics.ts';

describe('native haptics', () => {
  it('taps lightly, loading the plugin on the first tap only', async () => {
    const calls: unknown[] = [];
    const plugin: HapticsLike = { impactLight: () => Promise.resolve(void calls.push('light')) };
    const load = vi.fn(() => Promise.resolve(plugin));
    const haptics = createNativeHaptics(load);
    expect(load).not.toHaveBeenCalled();
    await haptics.tap();
    await haptics.tap();
    expect(load).toHaveBeenCalledTimes(1);
    expect(calls).toEqual(['light', 'light']);
  });
});
