/**
 * The background sound follows the player (issue 37, item 3): it plays while the voice plays, fades
 * and keeps its place when the voice pauses, fades with it when the sleep timer runs out, and stops
 * when the track ends or the player closes. The choice and its volume are kept on this device.
 *
 * One per page, made by the full player's chunk the first time it shows (so the first load carries
 * none of it) and kept when the sheet is minimised or closed: a minimised player goes on playing.
 */
import { readSoundscapePreference, SOUNDSCAPE, type SoundscapeChoice, type SoundscapePreference } from '#shared/soundscapes.ts';
import { readStored, writeStored } from '#web/lib/storage.ts';
import type { AudioEngine } from '#web/features/player/audio-engine.ts';
import type { PlayerStore } from '#web/features/player/player-store.ts';
import type { PlayerState } from '#web/features/player/player-machine.ts';
import { createSoundscapeMixer, type BedState, type SoundscapeMixer } from '#web/features/player/soundscape-mixer.ts';

export type Soundscape = {
  getPreference: () => SoundscapePreference;
  getBedState: () => BedState;
  choose: (choice: SoundscapeChoice) => void;
  setVolume: (volume: number) => void;
  subscribe: (listener: () => void) => () => void;
};

/** What the bed should do after the player moved from `prev` to `next`. */
export function bedAction(prev: PlayerState, next: PlayerState, nowMs: number): 'play' | 'pause' | 'stop' | null {
  if (!next.current) return prev.current ? 'stop' : null;
  // The sleep timer's end clears sleepAt at (or after) its time and fades the voice out: the bed fades with it.
  // Cleared before its time, it was the listener turning the timer off.
  if (prev.sleepAt !== null && next.sleepAt === null && nowMs >= prev.sleepAt) return 'pause';
  if (prev.status === next.status) return null;
  if (next.status === 'playing') return 'play';
  // Loading (the next track, or the stream catching up) keeps the bed as it is: no gap between tracks.
  if (next.status === 'paused' || next.status === 'error') return 'pause';
  return null;
}

function createSoundscape({ store, mixer }: { store: Pick<PlayerStore, 'getState' | 'subscribe'>; mixer: SoundscapeMixer }): Soundscape {
  let preference = readSoundscapePreference(readStored(SOUNDSCAPE.storageKey));
  const listeners = new Set<() => void>();
  const notify = () => {
    for (const listener of listeners) listener();
  };
  mixer.setVolume(preference.volume);
  mixer.choose(preference.choice);
  mixer.subscribe(notify);

  const save = (next: SoundscapePreference) => {
    preference = next;
    // Storage full or blocked: the choice still applies for this visit.
    writeStored(SOUNDSCAPE.storageKey, JSON.stringify(next));
    notify();
  };

  let previous = store.getState();
  if (previous.current && previous.status === 'playing') mixer.play();
  store.subscribe(() => {
    const next = store.getState();
    const action = bedAction(previous, next, Date.now());
    previous = next;
    if (action) mixer[action]();
  });

  return {
    getPreference: () => preference,
    getBedState: mixer.getState,
    choose(choice) {
      mixer.choose(choice, true);
      save({ ...preference, choice });
    },
    setVolume(volume) {
      mixer.setVolume(volume);
      save({ ...preference, volume });
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

let instance: Soundscape | null = null;

/** The page's background sound, made on first use (the store and engine are the provider's, one per page). */
export function soundscapeFor(store: PlayerStore, engine: AudioEngine): Soundscape {
  instance ??= createSoundscape({
    store,
    mixer: createSoundscapeMixer({
      createContext: () => new AudioContext(),
      fetchBytes: async (url) => {
        const response = await fetch(url);
        if (!response.ok) throw new Error(`${url}: ${response.status}`);
        return response.arrayBuffer();
      },
      voiceElements: engine.elements,
    }),
  });
  return instance;
}
