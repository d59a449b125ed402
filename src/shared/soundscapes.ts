/**
 * Background sound under any meditation (issue 37, item 3): the choices, their words and how loud
 * they start. A module of its own, not player-messages.ts or constants.ts: only the full player's lazy
 * chunk reads it, and the app's first load has no room left under its 120 KB (decision 0056).
 */

const SOUNDSCAPE_IDS = ['rain', 'ocean', 'forest', 'brown-noise'] as const;
export type SoundscapeId = (typeof SOUNDSCAPE_IDS)[number];
export type SoundscapeChoice = SoundscapeId | 'none';

export const SOUNDSCAPE_CHOICES: readonly SoundscapeChoice[] = ['none', ...SOUNDSCAPE_IDS];

export const SOUNDSCAPE_MESSAGES = {
  heading: 'Background sound',
  volume: 'Background volume',
  labels: { none: 'None', rain: 'Rain', ocean: 'Ocean', forest: 'Forest', 'brown-noise': 'Brown noise' } satisfies Record<SoundscapeChoice, string>,
} as const;

/**
 * The beds are the timer's files (scripts/generate-timer-sounds.sh), in the folder the service
 * worker caches once played (vite.config.ts, `timer-beds`).
 */
export const soundscapeUrl = (id: SoundscapeId): string => `/sounds/beds/${id}.mp3`;

export const SOUNDSCAPE = {
  /** Where the choice is kept on this device (not synced: it is about this device's speakers and room). */
  storageKey: 'hm.soundscape',
  /**
   * The bed's gain at the volume control's full, under a voice normalised to -1 dBFS peak: the beds
   * are at -14 dBFS peak, so even at 100% the voice stays on top.
   */
  defaultVolume: 0.5,
  /** Fades when the bed starts, pauses, changes or stops, in seconds (a cut in noise is a click). */
  fadeSeconds: 0.25,
  /** Ducking while the voice speaks: how far the bed drops, and how the voice's level is read. */
  duck: {
    /** Gain while ducked: about -6 dB. */
    gain: 0.5,
    /** The voice counts as speaking above this RMS level (dBFS): the demo voices sit near -20, their own beds near -40. */
    speakingDb: -32,
    /** How long the voice must stay quiet before the bed comes back up (a breath between words is not a pause). */
    holdMs: 600,
    /** Time constants of the bed's gain going down (quick, before the first word is masked) and up (slow, unnoticed). */
    attackSeconds: 0.08,
    releaseSeconds: 0.6,
    /** How often the voice's level is read while it plays. */
    pollMs: 50,
  },
} as const;

export type SoundscapePreference = { choice: SoundscapeChoice; volume: number };

const DEFAULT_SOUNDSCAPE: SoundscapePreference = { choice: 'none', volume: SOUNDSCAPE.defaultVolume };

/** A kept preference, field by field: anything unreadable falls back to the default. */
export function readSoundscapePreference(text: string | null): SoundscapePreference {
  let value: unknown = null;
  try {
    value = text === null ? null : JSON.parse(text);
  } catch {
    // Not JSON (edited by hand, or another version's format): the default.
  }
  const record = value !== null && typeof value === 'object' ? (value as Record<string, unknown>) : {};
  const choice = SOUNDSCAPE_CHOICES.find((id) => id === record.choice) ?? DEFAULT_SOUNDSCAPE.choice;
  const volume = typeof record.volume === 'number' && Number.isFinite(record.volume) ? Math.min(1, Math.max(0, record.volume)) : DEFAULT_SOUNDSCAPE.volume;
  return { choice, volume };
}
