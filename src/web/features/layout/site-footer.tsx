import { lazy, Suspense, useRef, useState } from 'react';
import { Link } from 'react-router';
import { APP_VERSION_LABEL } from '#shared/constants.ts';
import { initialTaps, registerTap } from '#web/features/diagnostics/tap-counter.ts';
import { Logo } from '#web/features/layout/logo.tsx';
import { FOOTER_LINKS } from '#web/features/layout/nav-links.ts';
import { loadDiagnosticsDialog } from '#web/lazy-chunks.ts';

const DiagnosticsDialog = lazy(() => loadDiagnosticsDialog().then((m) => ({ default: m.DiagnosticsDialog })));

export function SiteFooter() {
  const taps = useRef(initialTaps);
  const [diagnostics, setDiagnostics] = useState(false);
  const onVersionTap = () => {
    const result = registerTap(taps.current, Date.now());
    taps.current = result.state;
    if (result.open) setDiagnostics(true);
  };
  return (
    <footer className="mt-24 border-t border-stone-200 bg-white/60 dark:border-stone-800 dark:bg-stone-900/40">
      <div className="mx-auto grid max-w-6xl gap-10 px-4 py-12 sm:px-6 md:grid-cols-[1fr_2fr]">
        <div>
          <div className="flex items-center gap-2.5 font-serif text-lg font-semibold text-stone-900 dark:text-stone-50">
            <Logo className="size-7" />
            Harbour Mind
          </div>
          <p className="mt-3 max-w-xs text-sm leading-relaxed text-stone-600 dark:text-stone-400">
            A calm harbour for busy minds. Harbour Mind is a wellbeing tool, not a clinical service. In an emergency, call 999.
          </p>
        </div>
        <nav aria-label="Footer">
          <ul className="grid grid-cols-2 gap-x-6 gap-y-2 text-sm sm:grid-cols-3">
            {FOOTER_LINKS.map((link) => (
              <li key={link.to}>
                <Link to={link.to} className="text-stone-600 underline-offset-4 hover:text-teal-800 hover:underline dark:text-stone-300 dark:hover:text-teal-200">
                  {link.label}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
      </div>
      <div className="border-t border-stone-200 dark:border-stone-800">
        <div className="mx-auto flex max-w-6xl flex-wrap items-center justify-between gap-2 px-4 py-4 text-xs text-stone-500 sm:px-6 dark:text-stone-400">
          <p>© {new Date().getFullYear()} Harbour Mind</p>
          {/* A plain-looking button: the 5-tap diagnostics gesture (spec) works by touch, mouse and keyboard. */}
          <button type="button" data-testid="version-label" onClick={onVersionTap} className="cursor-default select-none">
            Version {APP_VERSION_LABEL}
          </button>
          {diagnostics ? (
            <Suspense fallback={null}>
              <DiagnosticsDialog open={diagnostics} onOpenChange={setDiagnostics} />
            </Suspense>
          ) : null}
        </div>
      </div>
    </footer>
  );
}
