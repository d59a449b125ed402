import { QueryClient } from '@tanstack/react-query';
import { ApiError } from '#web/lib/api.ts';

/** Retries only what may succeed on a second try (network trouble, 5xx), never a 4xx. */
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      staleTime: 30_000,
      retry: (failureCount, error) =>
        failureCount < 2 && (!(error instanceof ApiError) || error.status === 0 || error.status >= 500),
      refetchOnWindowFocus: false,
    },
  },
});
