import Compass from 'lucide-react/icons/compass';
import { useEffect } from 'react';
import { Link, useLocation } from 'react-router';
import { MESSAGES } from '#shared/messages.ts';
import { buttonClasses } from '#web/components/ui/button.tsx';
import { usePageTitle } from '#web/lib/use-page-title.ts';

/**
 * The server already answered this path with a 404 and logged it; this is the friendly face.
 * (Client-side navigation to an unknown path is also reported to the console for diagnostics.)
 */
export function NotFoundPage() {
  const { pathname } = useLocation();
  usePageTitle('Page not found');
  useEffect(() => {
    console.warn('404: unknown route', pathname);
  }, [pathname]);
  return (
    <div className="mx-auto flex max-w-xl flex-col items-center px-4 py-24 text-center">
      <Compass className="size-12 text-teal-700 dark:text-teal-300" aria-hidden />
      <p className="mt-6 font-serif text-7xl font-semibold text-stone-900 dark:text-stone-50">{MESSAGES.notFound.code}</p>
      <h1 className="mt-4 text-2xl font-semibold text-stone-800 dark:text-stone-100">{MESSAGES.notFound.title}</h1>
      <p className="mt-3 text-stone-600 dark:text-stone-300">The page you were looking for has drifted off. Let's get you back to calmer waters.</p>
      <Link to="/" className={buttonClasses({ className: 'mt-8' })}>
        {MESSAGES.notFound.home}
      </Link>
    </div>
  );
}
