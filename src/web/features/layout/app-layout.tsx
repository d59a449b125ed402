import { Outlet, useLocation, useNavigate } from 'react-router';
import { lazy, Suspense, useEffect, useRef, useState, useSyncExternalStore } from 'react';
import { CompletionOverlay } from '#web/features/player/completion-overlay.tsx';
import { PlayerProvider, usePlayerCore } from '#web/features/player/player-context.tsx';
import { SiteFooter } from '#web/features/layout/site-footer.tsx';
import { SiteHeader } from '#web/features/layout/site-header.tsx';
import { loadPlayerBar, loadPlayerSheet, loadSessionSummary } from '#web/lazy-chunks.ts';
import { platform } from '#web/platform/platform.ts';
import { useHydrated } from '#web/lib/hydration.tsx';
import { useOnline } from '#web/lib/use-online.ts';
import { OFFLINE_MESSAGES } from '#shared/offline-messages.ts';

// Shown only once a meditation is chosen; prefetched at idle (lazy-chunks.ts) so they open offline.
const PlayerBar = lazy(() => loadPlayerBar().then((m) => ({ default: m.PlayerBar })));
const SessionSummary = lazy(() => loadSessionSummary().then((m) => ({ default: m.SessionSummary })));
const PlayerSheet = lazy(() => loadPlayerSheet().then((m) => ({ default: m.PlayerSheet })));
// Inside the apps only: reminders kept scheduled on the device, and the offer of mindful minutes in Health.
const DeviceCompanions = lazy(() => import('#web/features/native/device-companions.tsx').then((m) => ({ default: m.DeviceCompanions })));

/** Every route change scrolls to the top (spec). */
function useScrollToTopOnNavigate() {
  const { pathname } = useLocation();
  useEffect(() => {
    window.scrollTo({ top: 0, left: 0, behavior: 'instant' });
  }, [pathname]);
}

/** How long to wait for a page's own title (a lazy page sets it once its chunk has loaded) before announcing what there is. */
const TITLE_WAIT_MS = 1000;

/**
 * After a navigation (not the first page: the browser announces that), focus moves to the main
 * landmark, so keyboard and screen-reader users start at the new content instead of the link they
 * left, and the new page's title is read out once it is set (a polite live region).
 */
function RouteAnnouncer() {
  const { pathname } = useLocation();
  const [message, setMessage] = useState('');
  const firstPage = useRef(true);
  useEffect(() => {
    if (firstPage.current) {
      firstPage.current = false;
      return;
    }
    document.getElementById('main')?.focus({ preventScroll: true });
    const announce = () => setMessage(document.title);
    const title = document.querySelector('title');
    const observer = new MutationObserver(announce);
    if (title) observer.observe(title, { childList: true, characterData: true, subtree: true });
    const timer = setTimeout(announce, TITLE_WAIT_MS);
    return () => {
      observer.disconnect();
      clearTimeout(timer);
    };
  }, [pathname]);
  return (
    <p role="status" aria-live="polite" aria-atomic="true" className="sr-only" data-testid="route-announcer">
      {message}
    </p>
  );
}

/**
 * Says so while the browser is offline (issue 38, item 5: offline, nothing did), in a polite live
 * region that is always there, so the change is announced without taking focus.
 */
function OfflineBanner() {
  const online = useOnline();
  return (
    <div role="status" data-testid="offline-banner">
      {online ? null : <p className="bg-amber-50 px-4 py-2 text-center text-sm font-medium text-amber-950 ring-1 ring-amber-200 dark:bg-amber-950 dark:text-amber-50 dark:ring-amber-900">{OFFLINE_MESSAGES.banner}</p>}
    </div>
  );
}

/**
 * Marks the document once the page's content is live (rendered here, or a prepared page adopted:
 * this sits in the page's own Suspense boundary, which hydrates last). Until then a prepared page
 * shows but does not yet answer taps; the end-to-end tests wait for it as a person would.
 */
function LiveMarker() {
  useEffect(() => {
    document.documentElement.dataset.live = 'true';
  }, []);
  return null;
}

/**
 * In the apps, a tapped verification or reset link opens its page here (the platform says which
 * links; the web has none). The document also says which shell it is in, for styles and tests.
 */
function useOpenedLinks() {
  const navigate = useNavigate();
  useEffect(() => {
    const current = platform();
    document.documentElement.dataset.platform = current.kind;
    return current.onOpenedLink((path) => void navigate(path));
  }, [navigate]);
}

export function AppLayout() {
  useScrollToTopOnNavigate();
  useOpenedLinks();
  return (
    <PlayerProvider>
      <Shell />
    </PlayerProvider>
  );
}

/**
 * While a page's chunk loads (first visit to a lazy page), a screen-tall placeholder keeps the
 * footer below the fold, so nothing on screen moves when the page arrives (CLS 0). Navigations
 * between pages keep the previous page until the next is ready (the router's transitions).
 */
const pageFallback = <div className="min-h-dvh" />;

/**
 * What the page's frame shows of the player: whether a track or a summary is up. Read as a slice of
 * the store, so the player's other changes (a stall and its recovery, a pause, the rate) re-render
 * the bars that show them, not the header, the page and the footer (a loaded machine's stalls
 * re-rendered the whole page twice in five seconds of playback).
 */
function usePlayerFrame() {
  const { store, actions } = usePlayerCore();
  const current = useSyncExternalStore(store.subscribe, () => store.getView().current, () => store.getView().current);
  const summary = useSyncExternalStore(store.subscribe, () => store.getView().summary, () => store.getView().summary);
  return { current, summary, playUpNext: actions.playUpNext, dismissSummary: actions.dismissSummary };
}

function Shell() {
  const player = usePlayerFrame();
  // After hydration: the server's prepared page is the web's, which has none of it.
  const hydrated = useHydrated();
  return (
    <div className={`flex min-h-dvh flex-col ${player.current || player.summary ? 'pb-20' : ''}`}>
      <SiteHeader playerUp={Boolean(player.current)} />
      <OfflineBanner />
      <RouteAnnouncer />
      <main id="main" tabIndex={-1} className="flex-1 focus:outline-none">
        <Suspense fallback={pageFallback}>
          <Outlet />
          <LiveMarker />
        </Suspense>
      </main>
      <SiteFooter />
      {player.current ? (
        <>
          <Suspense fallback={null}>
            <PlayerBar />
          </Suspense>
          <Suspense fallback={null}>
            <PlayerSheet />
          </Suspense>
        </>
      ) : player.summary ? (
        <Suspense fallback={null}>
          <SessionSummary summary={player.summary} onUpNext={player.playUpNext} onDismiss={player.dismissSummary} />
        </Suspense>
      ) : null}
      <CompletionOverlay />
      {hydrated && platform().native ? (
        <Suspense fallback={null}>
          <DeviceCompanions />
        </Suspense>
      ) : null}
    </div>
  );
}
