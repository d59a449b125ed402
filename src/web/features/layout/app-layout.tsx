import { Outlet, useLocation } from 'react-router';
import { useEffect } from 'react';
import { CompletionOverlay } from '#web/features/player/completion-overlay.tsx';
import { PlayerBar } from '#web/features/player/player-bar.tsx';
import { PlayerSheet } from '#web/features/player/player-sheet.tsx';
import { PlayerProvider, usePlayer } from '#web/features/player/player-context.tsx';
import { SiteFooter } from '#web/features/layout/site-footer.tsx';
import { SiteHeader } from '#web/features/layout/site-header.tsx';

/** Every route change scrolls to the top (spec) and moves focus to the main landmark for screen readers. */
function useScrollToTopOnNavigate() {
  const { pathname } = useLocation();
  useEffect(() => {
    window.scrollTo({ top: 0, left: 0, behavior: 'instant' });
  }, [pathname]);
}

export function AppLayout() {
  useScrollToTopOnNavigate();
  return (
    <PlayerProvider>
      <Shell />
    </PlayerProvider>
  );
}

function Shell() {
  const player = usePlayer();
  return (
    <div className={`flex min-h-dvh flex-col ${player.current ? 'pb-20' : ''}`}>
      <SiteHeader />
      <main id="main" tabIndex={-1} className="flex-1 focus:outline-none">
        <Outlet />
      </main>
      <SiteFooter />
      <PlayerBar />
      <PlayerSheet />
      <CompletionOverlay />
    </div>
  );
}
