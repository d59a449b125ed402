/** Top navigation; collapses into a disclosure menu below the md breakpoint. */
import Menu from 'lucide-react/icons/menu';
import X from 'lucide-react/icons/x';
import { useEffect, useId, useRef, useState } from 'react';
import { Link, NavLink, useLocation } from 'react-router';
import { buttonClasses } from '#web/components/ui/button.tsx';
import { useSignOut } from '#web/features/auth/use-sign-out.ts';
import { useViewer } from '#web/features/auth/use-viewer.ts';
import { Logo } from '#web/features/layout/logo.tsx';
import { PRIMARY_NAV } from '#web/features/layout/nav-links.ts';
import { can } from '#shared/policies.ts';

const linkClass = ({ isActive }: { isActive: boolean }) =>
  `rounded-full px-3 py-2 text-sm font-medium transition-colors ${
    isActive
      ? 'bg-teal-50 text-teal-800 dark:bg-teal-950 dark:text-teal-200'
      : 'text-stone-600 hover:bg-stone-100 hover:text-stone-900 dark:text-stone-300 dark:hover:bg-stone-800 dark:hover:text-stone-50'
  }`;

/** The mini player's landmark, the second skip link's target (player-bar.tsx). */
export const PLAYER_BAR_ID = 'now-playing';

export function SiteHeader({ playerUp = false }: { /** A track is chosen: the mini player is at the foot of the page. */ playerUp?: boolean }) {
  const location = useLocation();
  // The menu is open on the page where it was opened: navigating anywhere closes it, with no effect.
  const [openOn, setOpenOn] = useState<string | null>(null);
  const menuOpen = openOn === location.pathname;
  const menuId = useId();
  const viewer = useViewer();
  const toggleRef = useRef<HTMLButtonElement>(null);
  const menuRef = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (!menuOpen) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      // Focus was in the menu, which is now hidden: back to the button that opened it (issue 38: <body>).
      if (menuRef.current?.contains(document.activeElement)) toggleRef.current?.focus();
      setOpenOn(null);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [menuOpen]);

  const signOut = useSignOut();
  const primaryLinks = PRIMARY_NAV.map((item) => (
    <NavLink key={item.to} to={item.to} className={linkClass}>
      {item.label}
    </NavLink>
  ));
  const accountLinks = viewer.signedIn ? (
    <>
      {/* Only a shortcut for staff: /admin itself and every admin API check the role on the server. */}
      {can(viewer.who, 'run-catalogue') ? (
        <NavLink to="/admin" className={linkClass}>
          Admin
        </NavLink>
      ) : null}
      {/* Signed in without a subscription (or a lapsed one): the way back to the plans. */}
      {!viewer.canListen && !viewer.offline ? (
        <NavLink to="/subscribe" className={linkClass}>
          Subscribe
        </NavLink>
      ) : null}
      <NavLink to="/account" className={linkClass}>
        Account
      </NavLink>
      <button type="button" className={linkClass({ isActive: false })} onClick={() => void signOut('/sign-in')}>
        Sign Out
      </button>
    </>
  ) : (
    // Until the viewer is known (the prepared page, then a moment live), the visitor's links keep their
    // room, unseen and unreachable: appearing later, they pushed the whole row left (a layout shift at 1280 px).
    <span className={`contents ${viewer.status === 'loading' ? '[&>*]:invisible' : ''}`} aria-hidden={viewer.status === 'loading' || undefined} inert={viewer.status === 'loading' || undefined}>
      <NavLink to="/sign-in" className={linkClass}>
        Sign In
      </NavLink>
      <Link to="/subscribe" className={buttonClasses({ size: 'sm' })}>
        Get Started
      </Link>
    </span>
  );

  return (
    <header className="sticky top-0 z-40 border-b border-stone-200/70 bg-stone-50/85 backdrop-blur-md dark:border-stone-800/70 dark:bg-stone-950/85">
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:absolute focus:left-4 focus:top-3 focus:z-50 focus:rounded-full focus:bg-teal-700 focus:px-4 focus:py-2 focus:text-white"
      >
        Skip to content
      </a>
      {/* The mini player comes last in the page: reachable early, without tabbing through it all (issue 38). */}
      {playerUp ? (
        <a
          href={`#${PLAYER_BAR_ID}`}
          className="sr-only focus:not-sr-only focus:absolute focus:left-4 focus:top-3 focus:z-50 focus:rounded-full focus:bg-teal-700 focus:px-4 focus:py-2 focus:text-white"
        >
          Skip to player
        </a>
      ) : null}
      <nav aria-label="Main" className="mx-auto flex h-16 max-w-6xl items-center gap-4 px-4 sm:px-6">
        <Link to="/" className="flex items-center gap-2.5 rounded-full pr-2 font-serif text-xl font-semibold text-stone-900 dark:text-stone-50">
          <Logo />
          <span>Harbour Mind</span>
        </Link>
        <div className="ml-auto hidden items-center gap-1 md:flex">
          {primaryLinks}
          <span className="mx-2 h-6 w-px bg-stone-200 dark:bg-stone-800" aria-hidden />
          {accountLinks}
        </div>
        <button
          ref={toggleRef}
          type="button"
          className="ml-auto inline-flex size-11 items-center justify-center rounded-full text-stone-700 hover:bg-stone-100 md:hidden dark:text-stone-200 dark:hover:bg-stone-800"
          aria-expanded={menuOpen}
          aria-controls={menuId}
          aria-label={menuOpen ? 'Close menu' : 'Open menu'}
          onClick={() => setOpenOn(menuOpen ? null : location.pathname)}
        >
          {menuOpen ? <X className="size-6" aria-hidden /> : <Menu className="size-6" aria-hidden />}
        </button>
      </nav>
      <div ref={menuRef} id={menuId} hidden={!menuOpen} className="border-t border-stone-200 px-4 pb-6 pt-3 md:hidden dark:border-stone-800">
        <div className="flex flex-col gap-1">
          {primaryLinks}
          <div className="my-2 h-px bg-stone-200 dark:bg-stone-800" aria-hidden />
          <div className="flex flex-wrap items-center gap-2">{accountLinks}</div>
        </div>
      </div>
    </header>
  );
}
