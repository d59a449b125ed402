/**
 * Code kept out of the first download (issue 15: ≤ 120 KB gzip on home, catalogue and subscribe),
 * each loaded once by whoever needs it first: its React.lazy component, or `prefetchWhenIdle()`.
 *
 * The prefetch matters offline: the player plays downloads with the network off, and a chunk the
 * service worker has not precached yet (first visit) could not load then; once imported it stays
 * in memory for the life of the page. So everything a listener may need offline is imported as
 * soon as the page is idle: the offline copies' store, the mini player and the player sheet, the toasts, and the
 * catalogue's subscribe dialog (small, and shares the sheet's dialog code). Not the diagnostics overlay
 * (five taps on the version label): 6.5 KB a phone fetched and compiled while the page settled, for a
 * support tool; the service worker has it for offline once installed (issue 39).
 */
import { loadOnce, nextIdle, whenIdle } from '#web/lib/idle.ts';
import { loadAfterModals, loadSonner, wantToaster } from '#web/lib/toast.ts';
import { readStored } from '#web/lib/storage.ts';
import { registerServiceWorker } from '#web/lib/service-worker.ts';
import { STORAGE_KEYS } from '#shared/constants.ts';

/** The encrypted offline copies (IndexedDB): the player reads them with the network off. */
export const loadOfflineStore = loadOnce(() => import('#web/features/downloads/offline-store.ts'));
/** The react-query key its copies are listed under (here, so listing them and removing them on a lapse share it without sharing a chunk). */
export const OFFLINE_QUERY_KEY = ['offline-copies'] as const;
/** Home: a lazy page too (issue 15), prefetched once idle wherever the visit began, so Home opens offline. */
export const loadHomePage = loadOnce(() => import('#web/features/home/home-page.tsx'));
/** The catalogue page (home prefetches it once idle). */
/** Home's "Today" section, for signed-in people only (issue 17). */
export const loadTodaySection = loadOnce(() => import('#web/features/home/today-section.tsx'));
export const loadMeditationsPage = loadOnce(() => import('#web/features/catalogue/meditations-page.tsx'));
export const loadPlayerBar = loadOnce(() => import('#web/features/player/player-bar.tsx'));
export const loadPlayerSheet = loadOnce(() => import('#web/features/player/player-sheet.tsx'));
export const loadSessionSummary = loadOnce(() => import('#web/features/player/session-summary.tsx'));
export const loadDiagnosticsDialog = loadOnce(() => import('#web/features/diagnostics/diagnostics-dialog.tsx'));
export const loadSubscribeDialog = loadOnce(() => import('#web/features/catalogue/subscribe-dialog.tsx'));
/** Where each meditation was left off (issue 20, item 2), and the player's saving of it: loaded after the first paint. */
export const loadPositions = loadOnce(() => import('#web/features/player/positions.ts'));
export const loadPositionSaving = loadOnce(() => import('#web/features/player/use-position-saving.ts'));
/** The device's record of the subscription, for offline copies: loaded after the first paint. */
export const loadOfflineEntitlementSync = loadOnce(() => import('#web/features/downloads/use-offline-entitlement-sync.ts'));
/** Finished plays into practice sessions (and the queue of those not sent yet): loaded after the first paint. */
export const loadSessionRecording = loadOnce(() => import('#web/features/player/use-session-recording.ts'));
/** The sign-in dialog brings the form library and zod: loaded when first opened, never at idle. */
export const loadAuthDialog = loadOnce(() => import('#web/features/auth/auth-dialog.tsx'));

export function prefetchWhenIdle(): void {
  whenIdle(() => {
    // Someone signed in on this device also gets home's "Today" (visitors never need it).
    const personal = readStored(STORAGE_KEYS.viewerSnapshot) === null ? [] : [loadTodaySection];
    void prefetchInTurn([loadMeditationsPage, loadHomePage, ...personal, loadOfflineStore, loadPlayerBar, loadPlayerSheet, loadSessionSummary, loadSonner, loadAfterModals, loadSubscribeDialog]);
  });
}

/**
 * One chunk per idle moment: each is compiled and run in a short task of its own, so none holds up
 * a tap (a single burst of all of them was a long task on a slow phone). The toast region mounts
 * last, then the service worker is registered.
 */
async function prefetchInTurn(loads: (() => Promise<unknown>)[]): Promise<void> {
  for (const load of loads) {
    await nextIdle();
    await load().catch((error: unknown) => {
      console.warn('prefetch failed (retried when needed)', error);
    });
  }
  await nextIdle();
  wantToaster();
  await nextIdle();
  registerServiceWorker();
}
