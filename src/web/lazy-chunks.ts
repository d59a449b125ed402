/**
 * Code kept out of the first download (issue 15: ≤ 120 KB gzip on home, catalogue and subscribe),
 * each loaded once by whoever needs it first: its React.lazy component, or `prefetchWhenIdle()`.
 *
 * The prefetch matters offline: the player plays downloads with the network off, and a chunk the
 * service worker has not precached yet (first visit) could not load then; once imported it stays
 * in memory for the life of the page. So everything a listener may need offline is imported as
 * soon as the page is idle: the pages, the toasts and the catalogue's subscribe dialog for anyone;
 * the offline copies' store, the mini player and the player sheet for someone signed in. Not the diagnostics overlay
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
/** Home's "Today" section, for signed-in people only (issue 17). */
export const loadTodaySection = loadOnce(() => import('#web/features/home/today-section.tsx'));
/** The catalogue page (home prefetches it once idle). */
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

/**
 * What only someone signed in on this device needs: home's "Today", and what plays their offline
 * copies (kept per account, so a visitor has none). A visitor's player loads when they first press
 * play; not fetching it at idle kept a phone's start within 160 KB of JavaScript (issue 39).
 */
const SIGNED_IN_CHUNKS = [loadTodaySection, loadOfflineStore, loadPlayerBar, loadPlayerSheet, loadSessionSummary];
let signedInPrefetched = false;

/** Once someone is known to be signed in here (the device's last answer, or /api/me's first): their chunks, at idle. */
export function prefetchForSignedIn(): void {
  if (signedInPrefetched) return;
  signedInPrefetched = true;
  whenIdle(() => void prefetchInTurn(SIGNED_IN_CHUNKS));
}

/** At start: the pages and dialogs anyone may open next, then the toast region and the service worker. */
export function prefetchWhenIdle(): void {
  if (readStored(STORAGE_KEYS.viewerSnapshot) !== null) prefetchForSignedIn();
  whenIdle(() => {
    void prefetchInTurn([loadMeditationsPage, loadHomePage, loadSonner, loadAfterModals, loadSubscribeDialog]).then(async () => {
      // The toast region mounts last, then the service worker is registered.
      await nextIdle();
      wantToaster();
      await nextIdle();
      registerServiceWorker();
    });
  });
}

/**
 * One chunk per idle moment: each is compiled and run in a short task of its own, so none holds up
 * a tap (a single burst of all of them was a long task on a slow phone).
 */
async function prefetchInTurn(loads: (() => Promise<unknown>)[]): Promise<void> {
  for (const load of loads) {
    await nextIdle();
    await load().catch((error: unknown) => {
      console.warn('prefetch failed (retried when needed)', error);
    });
  }
}
