/**
 * The global player, mounted once in the layout so playback continues across route changes:
 * the pure machine (player-machine.ts) held in a store (player-store.ts), two <audio> elements
 * (audio-engine.ts, player-audio.tsx), and the listener's intents (player-actions.ts).
 *
 * Two contexts on purpose: `usePlayer()` is the track, status and actions, and changes only when
 * one of those does; `usePlayerProgress()` is the position, which changes ~4×/s while audio plays,
 * so only the components that show progress re-render on `timeupdate`.
 */
import { createContext, lazy, Suspense, useContext, useEffect, useMemo, useState, useSyncExternalStore, type ReactNode } from 'react';
import { loadOfflineEntitlementSync, loadPositionSaving, loadSessionRecording } from '#web/lazy-chunks.ts';
import { AUDIO } from '#shared/constants.ts';
import { useViewer } from '#web/features/auth/use-viewer.ts';
import { createAudioEngine, type AudioEngine } from '#web/features/player/audio-engine.ts';
import { createPlayerActions, type PlayerActions } from '#web/features/player/player-actions.ts';
import { PlayerAudio } from '#web/features/player/player-audio.tsx';
import { createPlayerStore, initialStoreState, saveRate, type PlayerProgress, type PlayerStore, type PlayerView } from '#web/features/player/player-store.ts';

export type PlayerApi = PlayerView & PlayerActions;

/** Resume where you left off: saved by a piece loaded after the first paint (lazy-chunks.ts). */
const PositionSaving = lazy(() => loadPositionSaving().then((m) => ({ default: m.PositionSaving })));
/** Finished plays become practice sessions: recorded by a piece loaded after the first paint too. */
/** The device's record of the subscription, which decides whether offline copies play. */
const OfflineEntitlementSync = lazy(() => loadOfflineEntitlementSync().then((m) => ({ default: m.OfflineEntitlementSync })));
const SessionRecording = lazy(() => loadSessionRecording().then((m) => ({ default: m.SessionRecording })));

const PlayerContext = createContext<PlayerApi | null>(null);
const PlayerStoreContext = createContext<{ store: PlayerStore; actions: PlayerActions; engine: AudioEngine } | null>(null);

/** The current track, its status and the player's actions; not the position (see usePlayerProgress). */
export function usePlayer(): PlayerApi {
  const value = useContext(PlayerContext);
  if (!value) throw new Error('usePlayer must be used inside PlayerProvider');
  return value;
}

/** The playback position and length, for the components that show progress. */
export function usePlayerProgress(): PlayerProgress {
  const { store } = usePlayerCore();
  return useSyncExternalStore(store.subscribe, store.getProgress, store.getProgress);
}

/** The store itself, the stable actions and the engine, for what follows playback outside React's renders (the media controls, the background sound). */
export function usePlayerCore(): { store: PlayerStore; actions: PlayerActions; engine: AudioEngine } {
  const core = useContext(PlayerStoreContext);
  if (!core) throw new Error('usePlayerCore must be used inside PlayerProvider');
  return core;
}

export function PlayerProvider({ children }: { children: ReactNode }) {
  const [store] = useState(() => createPlayerStore(initialStoreState()));
  const [engine] = useState(() => createAudioEngine(store));
  const [actions] = useState(() => createPlayerActions(store, engine));
  const view = useSyncExternalStore(store.subscribe, store.getView, store.getView);
  const api = useMemo<PlayerApi>(() => ({ ...view, ...actions }), [view, actions]);
  const core = useMemo(() => ({ store, actions, engine }), [store, actions, engine]);

  const viewer = useViewer();
  const userId = viewer.user?.id ?? null;
  useEffect(() => engine.setUserId(userId), [engine, userId]);

  // Playback speed applies to whichever element plays and is remembered on this device.
  useEffect(() => {
    engine.applyRate(view.rate);
    saveRate(view.rate);
  }, [engine, view.rate]);

  // Sleep timer: fade out gently, then pause.
  useEffect(() => {
    if (view.sleepAt === null) return;
    const timer = setTimeout(
      () => {
        store.dispatch({ type: 'sleep', at: null });
        engine.fadeOutAndPause();
      },
      Math.max(0, view.sleepAt - Date.now()),
    );
    return () => clearTimeout(timer);
  }, [store, engine, view.sleepAt]);

  // The completion overlay stays for the spec's 3 seconds.
  useEffect(() => {
    if (!view.completed) return;
    const timer = setTimeout(() => store.dispatch({ type: 'dismiss-completion' }), AUDIO.completionOverlayMs);
    return () => clearTimeout(timer);
  }, [store, view.completed]);

  useEffect(() => () => engine.stopAll(), [engine]);

  return (
    <PlayerStoreContext.Provider value={core}>
      <PlayerContext.Provider value={api}>
        {children}
        <PlayerAudio engine={engine} />
        <Suspense fallback={null}>
          <SessionRecording engine={engine} userId={userId} />
          <OfflineEntitlementSync />
          <PositionSaving store={store} userId={userId} />
        </Suspense>
      </PlayerContext.Provider>
    </PlayerStoreContext.Provider>
  );
}
