/**
 * Mindful minutes in Apple Health and Health Connect (issue 20, item 5), through @capgo/capacitor-health:
 * each completed session written as a HealthKit "Mindful Session" / a Health Connect mindfulness
 * session. Write access only: Harbour Mind never reads anything from the person's health data.
 */
import type { HealthPlugin } from '@capgo/capacitor-health';
import type { PlatformKind } from '#web/platform/detect.ts';
import type { SessionKind } from '#shared/practice.ts';

export type HealthLike = Pick<HealthPlugin, 'isAvailable' | 'checkAuthorization' | 'requestAuthorization' | 'saveSample'>;

export interface MindfulMinutes {
  /** What the person knows it as on this device. */
  readonly storeName: 'Apple Health' | 'Health Connect';
  /** Whether the store is there at all (Health Connect may be missing or need an update; an iPad has no Health). */
  isAvailable(): Promise<boolean>;
  /** Whether writing mindful minutes is allowed, without asking. */
  isAllowed(): Promise<boolean>;
  /** Shows the store's permission sheet (call it from a tap); answers whether writing is now allowed. */
  ask(): Promise<boolean>;
  /** Writes one session; `kind` tells Health Connect a guided meditation from an unguided sitting or a breathing exercise. */
  save(session: { start: Date; end: Date; kind: SessionKind }): Promise<void>;
}

const MINDFULNESS = { write: ['mindfulness' as const] };

export function createNativeMindfulMinutes(kind: Exclude<PlatformKind, 'web'>, load: () => Promise<HealthLike>): MindfulMinutes {
  let plugin: Promise<HealthLike> | undefined;
  const health = () => (plugin ??= load());
  return {
    storeName: kind === 'ios' ? 'Apple Health' : 'Health Connect',
    async isAvailable() {
      try {
        return (await (await health()).isAvailable()).available;
      } catch {
        return false;
      }
    },
    async isAllowed() {
      return (await (await health()).checkAuthorization(MINDFULNESS)).writeAuthorized.includes('mindfulness');
    },
    async ask() {
      return (await (await health()).requestAuthorization(MINDFULNESS)).writeAuthorized.includes('mindfulness');
    },
    async save({ start, end, kind: sessionKind }) {
      const minutes = Math.max(0, (end.getTime() - start.getTime()) / 60_000);
      await (await health()).saveSample({
        dataType: 'mindfulness',
        value: Math.round(minutes * 100) / 100,
        unit: 'minute',
        startDate: start.toISOString(),
        endDate: end.toISOString(),
        mindfulnessSessionType: sessionKind === 'timer' ? 'unguided' : sessionKind === 'breathing' ? 'breathing' : 'meditation',
        metadata: { source: 'Harbour Mind' },
      });
    },
  };
}
