/**
 * The whole app below the router: the same tree in the browser (main.tsx) and on the server
 * (entry-server.tsx), so HTML the server prepared is adopted by React, not replaced.
 *
 * Declarative routing (useRoutes), not the data router: the app loads no data in route loaders,
 * and the data router would add ~18 KB gzip to every first load (issue 15).
 */
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { useLocation, useRoutes } from 'react-router';
import { Toaster } from '#web/components/ui/toaster.tsx';
import { RouteErrorBoundary } from '#web/features/layout/route-error.tsx';
import { HydrationGate } from '#web/lib/hydration.tsx';
import { routes } from '#web/routes.tsx';

function Routes() {
  const { pathname } = useLocation();
  const element = useRoutes(routes);
  return <RouteErrorBoundary resetKey={pathname}>{element}</RouteErrorBoundary>;
}

/**
 * The app for one query cache; the router is the caller's (BrowserRouter, or StaticRouter on the
 * server). `hydrating`: the server's render and the browser's adoption of it (lib/hydration.tsx).
 */
export function App({ queryClient, hydrating }: { queryClient: QueryClient; hydrating: boolean }) {
  return (
    <QueryClientProvider client={queryClient}>
      <HydrationGate hydrating={hydrating}>
        <Routes />
        <Toaster />
      </HydrationGate>
    </QueryClientProvider>
  );
}
