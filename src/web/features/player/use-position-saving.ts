/**
 * Resume where you left off (issue 20, item 2): the player's position is remembered on the device
 * as it plays (every few seconds, and when it pauses; 0 once a track ends), and sent to the server for
 * signed-in people at most every few seconds, and again when the browser comes back online. The
 * server's positions are merged in when the app starts or reconnects: the newest wins on both sides.
 */
import { useEffect } from 'react';
import { practiceApi } from '#shared/contracts/practice.routes.ts';
import { ApiError } from '#web/lib/api.ts';
import { call } from '#web/lib/call.ts';
import { mergeServerPositions, pendingPositions, rememberPosition, setPositionsOwner, settlePosition, subscribePositions } from '#web/features/player/positions.ts';
import type { PlayerStore } from '#web/features/player/player-store.ts';

/** How far playback moves before the device writes the position down again. */
const REMEMBER_EVERY_SECONDS = 5;
/** Sends to the server at most this often while playing (a position a few seconds old is fine; a request every second is not). */
const SEND_EVERY_MS = 10_000;

/** Sends the positions the server does not have yet; stops at the first that cannot be sent now. */
async function sendPending(): Promise<void> {
  for (const [meditationId, position] of pendingPositions()) {
    try {
      const answer = await call(practiceApi.savePosition, { params: { id: meditationId }, body: { positionSeconds: position.positionSeconds, updatedAt: position.updatedAt } });
      settlePosition(meditationId, position.updatedAt, answer.position);
    } catch (error) {
      // Refused for good (the meditation left the catalogue): keep it on this device only. Anything else: later.
      if (error instanceof ApiError && (error.status === 400 || error.status === 404)) {
        settlePosition(meditationId, position.updatedAt, { meditationId, ...position });
        continue;
      }
      return;
    }
  }
}

function usePositionSaving(store: PlayerStore, userId: string | null): void {
  useEffect(() => setPositionsOwner(userId), [userId]);

  // The server's copy, for signed-in people.
  useEffect(() => {
    if (!userId) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let stopped = false;
    const send = () => {
      timer = undefined;
      if (!stopped) void sendPending();
    };
    const sync = () => {
      call(practiceApi.positions)
        .then(({ positions }) => {
          if (stopped) return;
          mergeServerPositions(positions);
          send();
        })
        .catch((error: unknown) => console.warn('positions: not synced now, kept on this device', error));
    };
    sync();
    window.addEventListener('online', sync);
    const unsubscribe = subscribePositions(() => {
      if (timer === undefined && pendingPositions().length > 0) timer = setTimeout(send, SEND_EVERY_MS);
    });
    return () => {
      stopped = true;
      clearTimeout(timer);
      window.removeEventListener('online', sync);
      unsubscribe();
    };
  }, [userId]);

  // The player's position, written down as it changes.
  useEffect(() => {
    let last: { meditationId: string; seconds: number; paused: boolean } | null = null;
    let endedPlay: string | null = null;
    return store.subscribe(() => {
      const view = store.getView();
      // It ended (heard through, or a seek to the end: the summary without the overlay): next time it starts from the beginning.
      const finished = view.completed ?? view.summary;
      if (finished && finished.playId !== endedPlay) {
        endedPlay = finished.playId;
        rememberPosition(finished.meditationId, 0);
        last = null;
      }
      const { current, status } = view;
      if (!current || (status !== 'playing' && status !== 'paused')) return;
      const { currentTime } = store.getProgress();
      const paused = status === 'paused';
      const moved = !last || last.meditationId !== current.id || Math.abs(currentTime - last.seconds) >= REMEMBER_EVERY_SECONDS || (paused && !last.paused);
      if (!moved) return;
      last = { meditationId: current.id, seconds: currentTime, paused };
      rememberPosition(current.id, currentTime);
    });
  }, [store]);
}

/** The saving, as a component the player mounts once its chunk has loaded (lazy-chunks.ts): it renders nothing. */
export function PositionSaving({ store, userId }: { store: PlayerStore; userId: string | null }): null {
  usePositionSaving(store, userId);
  return null;
}
