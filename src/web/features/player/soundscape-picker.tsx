/**
 * "Background sound" in the full player (issue 37, item 3): None, Rain, Ocean, Forest or Brown noise
 * as a radio group (arrow keys move between them; a screen reader hears the group's name), and the
 * bed's own volume as a slider named "Background volume".
 */
import { useEffect, useId, useState, useSyncExternalStore } from 'react';
import { SOUNDSCAPE_CHOICES, SOUNDSCAPE_MESSAGES } from '#shared/soundscapes.ts';
import { ChoiceCards } from '#web/components/ui/choice-cards.tsx';
import { usePlayerCore } from '#web/features/player/player-context.tsx';
import { soundscapeFor } from '#web/features/player/soundscape.ts';

const OPTIONS = SOUNDSCAPE_CHOICES.map((id) => ({ id, label: SOUNDSCAPE_MESSAGES.labels[id] }));

/** Lazy in the sheet (player-sheet.tsx): only someone who opens the full player fetches it. */
export function SoundscapePicker() {
  const { store, engine } = usePlayerCore();
  // One per page (soundscape.ts keeps it): the sheet made it when the track started, or this makes it.
  const [soundscape] = useState(() => soundscapeFor(store, engine));
  const headingId = useId();
  const volumeId = useId();
  const preference = useSyncExternalStore(soundscape.subscribe, soundscape.getPreference, soundscape.getPreference);
  const bedState = useSyncExternalStore(soundscape.subscribe, soundscape.getBedState, soundscape.getBedState);
  // The mixer's chunk, fetched while the sheet is open, so a tap on a bed can start the sound itself.
  useEffect(() => soundscape.prepare(), [soundscape]);
  return (
    <section aria-labelledby={headingId} data-bed-state={bedState} className="mx-auto mt-8 w-full max-w-xl">
      <h2 id={headingId} className="text-sm font-semibold text-stone-700 dark:text-stone-200">
        {SOUNDSCAPE_MESSAGES.heading}
      </h2>
      <ChoiceCards options={OPTIONS} value={preference.choice} onChange={soundscape.choose} labelledBy={headingId} className="mt-3 grid grid-cols-2 gap-2 sm:grid-cols-5" />
      <div className="mt-4 flex items-center gap-3">
        <label htmlFor={volumeId} className="shrink-0 text-sm text-stone-600 dark:text-stone-300">
          {SOUNDSCAPE_MESSAGES.volume}
        </label>
        <input
          id={volumeId}
          type="range"
          min={0}
          max={100}
          step={5}
          value={Math.round(preference.volume * 100)}
          aria-valuetext={`${Math.round(preference.volume * 100)}%`}
          disabled={preference.choice === 'none'}
          onChange={(event) => soundscape.setVolume(Number(event.target.value) / 100)}
          className="h-11 w-full cursor-pointer accent-teal-700 disabled:cursor-not-allowed disabled:opacity-50 dark:accent-teal-400"
        />
      </div>
    </section>
  );
}
