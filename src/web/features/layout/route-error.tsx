import { RefreshCw } from 'lucide-react';
import { useEffect } from 'react';
import { useRouteError } from 'react-router';
import { Button } from '#web/components/ui/button.tsx';
import { usePageTitle } from '#web/lib/use-page-title.ts';

/**
 * The root route's error screen. The usual cause is a deploy: this tab still runs the previous
 * build, whose page chunks the server no longer has, so the lazy import fails. Reloading fetches
 * the new build; the router's own crash page would only show a stack trace.
 */
export function RouteError() {
  const error = useRouteError();
  usePageTitle();
  useEffect(() => {
    console.error('route failed to load', error);
  }, [error]);
  return (
    <main className="mx-auto flex min-h-screen max-w-xl flex-col items-center justify-center px-4 text-center">
      <h1 className="text-2xl font-semibold text-stone-800 dark:text-stone-100">This page could not load.</h1>
      <p className="mt-3 text-stone-600 dark:text-stone-300">Reload to get the latest version.</p>
      <Button className="mt-8" onClick={() => window.location.reload()}>
        <RefreshCw className="size-4" aria-hidden /> Reload
      </Button>
    </main>
  );
}
