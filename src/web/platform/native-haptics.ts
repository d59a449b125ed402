/**
 * The device's haptics engine inside the apps (issue 37, item 1), through @capacitor/haptics: a
 * light tap at each phase of a guided breathing exercise, to follow with the eyes closed and the
 * sound off (decision 0049). The web has none (platform().haptics is null).
 */
import type { Haptics } from '#web/platform/platform.ts';

/** The plugin's `Haptics.impact({ style: ImpactStyle.Light })`, wrapped where the plugin loads (native-platform.ts). */
export type HapticsLike = { impactLight(): Promise<void> };

export function createNativeHaptics(load: () => Promise<HapticsLike>): Haptics {
  let plugin: Promise<HapticsLike> | undefined;
  return {
    async tap() {
      await (await (plugin ??= load())).impactLight();
    },
  };
}
