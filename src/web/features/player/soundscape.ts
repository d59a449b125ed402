/**
 * The background sound follows the player (issue 37, item 3): it plays while the voice plays, fades
 * and keeps its place when the voice pauses, fades with it when the sleep timer runs out, and stops
 * when the track ends or the player closes. The choice and its volume are kept on this device.
 *
 * One per page, made when the first track starts (player-sheet.tsx imports this chunk then; neither the
 * first load nor the idle prefetch carries it) and kept when the sheet is minimised or closed: a
 * minimised player goes on playing. The mixer itself (soundscape-mixer.ts) is a chunk of its own,
 * loaded when the sheet opens or a kept bed is to play.
 */
import { readSoundscapePreference, SOUNDSCAPE, type SoundscapeChoice, type SoundscapePreference } from '#shared/soundscapes.ts';
import { loadOnce } from '#web/lib/idle.ts';
import { readStored, writeStored } from '#web/lib/storage.ts';
import type { AudioEngine } from '#web/features/player/audio-engine.ts';
import type { PlayerStore } from '#web/features/player/player-store.ts';
import type { PlayerState } from '#web/features/player/player-machine.ts';
import type { BedState, SoundscapeMixer } from '#web/features/player/soundscape-mixer.ts';

export type Soundscape = {
  getPreference: () => SoundscapePreference;
  getBedState: () => BedState;
  /** Loads the mixer ahead of a tap on a bed (the sheet calls it when it opens), so the tap itself can start the sound. */
  prepare: () => void;
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

function createSoundscape({ store, makeMixer }: { store: Pick<PlayerStore, 'getState' | 'subscribe'>; makeMixer: () => Promise<SoundscapeMixer> }): Soundscape {
  let preference = readSoundscapePreference(readStored(SOUNDSCAPE.storageKey));
  let mixer: SoundscapeMixer | null = null;
  const listeners = new Set<() => void>();
  const notify = () => {
    for (const listener of listeners) listener();
  };

  let making = false;
  const prepare = () => {
    if (mixer || making) return;
    making = true;
    void makeMixer()
      .then((made) => {
        mixer = made;
        made.setVolume(preference.volume);
        made.choose(preference.choice);
        made.subscribe(notify);
        const { current, status } = store.getState();
        if (current && status === 'playing') made.play();
        notify();
      })
      .catch((error: unknown) => {
        // Offline before the chunk was ever fetched: the voice plays on; the next open tries again.
        making = false;
        console.warn('soundscape: mixer unavailable', error);
      });
  };

  const save = (next: SoundscapePreference) => {
    preference = next;
    // Storage full or blocked: the choice still applies for this visit.
    writeStored(SOUNDSCAPE.storageKey, JSON.stringify(next));
    notify();
  };

  let previous = store.getState();
  store.subscribe(() => {
    const next = store.getState();
    const action = bedAction(previous, next, Date.now());
    previous = next;
    if (action) mixer?.[action]();
  });
  // A bed kept from an earlier visit plays with the next track.
  if (preference.choice !== 'none') prepare();

  return {
    getPreference: () => preference,
    getBedState: () => mixer?.getState() ?? (preference.choice === 'none' ? 'off' : 'paused'),
    prepare,
    choose(choice) {
      save({ ...preference, choice });
      if (mixer) mixer.choose(choice, true);
      else prepare();
    },
    setVolume(volume) {
      mixer?.setVolume(volume);
      save({ ...preference, volume });
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

const loadMixer = loadOnce(() => import('#web/features/player/soundscape-mixer.ts'));

let instance: Soundscape | null = null;

/** The page's background sound, made on first use (the store and engine are the provider's, one per page). */
export function soundscapeFor(store: PlayerStore, engine: AudioEngine): Soundscape {
  instance ??= createSoundscape({
    store,
    makeMixer: async () =>
      (await loadMixer()).createSoundscapeMixer({
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
