/** The player's two <audio> elements, mounted once beside the app so playback survives route changes. */
import { useSyncExternalStore } from 'react';
import type { AudioEngine } from '#web/features/player/audio-engine.ts';
import { platform } from '#web/platform/platform.ts';

const SLOTS = [0, 1] as const;

export function PlayerAudio({ engine }: { engine: AudioEngine }) {
  const activeSlot = useSyncExternalStore(engine.subscribeActiveSlot, engine.getActiveSlot, engine.getActiveSlot);
  const { events } = engine;
  return SLOTS.map((slot) => (
    // eslint-disable-next-line jsx-a11y/media-has-caption -- spoken meditations: the transcript panel (player-sheet.tsx) is their text alternative; there is no timed caption track to attach
    <audio
      key={slot}
      ref={(audio) => {
        // Set here, not as a prop: the page is rendered on the server for the web, and hydration keeps the server's attributes.
        if (audio) audio.crossOrigin = platform().mediaCrossOrigin ?? null;
        engine.attach(slot, audio);
      }}
      preload="auto"
      data-testid={slot === activeSlot ? 'player-audio' : 'player-audio-outgoing'}
      onPlaying={(e) => events.playing(e.currentTarget)}
      onPause={(e) => events.pause(e.currentTarget)}
      onWaiting={(e) => events.waiting(e.currentTarget)}
      onStalled={(e) => events.waiting(e.currentTarget)}
      onSeeking={(e) => events.seeking(e.currentTarget)}
      onTimeUpdate={(e) => events.timeUpdate(e.currentTarget)}
      onLoadedMetadata={(e) => events.loadedMetadata(e.currentTarget)}
      onEnded={(e) => events.ended(e.currentTarget)}
      onError={(e) => events.error(e.currentTarget)}
    />
  ));
}
