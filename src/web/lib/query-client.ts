import { QueryClient } from '@tanstack/react-query';
import { ApiError, isRetryable } from '#web/lib/api.ts';

/** The longest wait for a retry the server asked for (Retry-After); a longer one is not retried. */
const MAX_RETRY_WAIT_MS = 10_000;

/**
 * Retries only what the spec calls retryable (no connection or a timeout, a rate limit, the server
 * busy for a moment), twice at most, after the wait the server asked for when it said one.
 */
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      staleTime: 30_000,
      retry: (failureCount, error) =>
        failureCount < 2 && isRetryable(error) && (error.retryAfter ?? 0) * 1000 <= MAX_RETRY_WAIT_MS,
      retryDelay: (attempt, error) => (error instanceof ApiError && error.retryAfter ? error.retryAfter * 1000 : Math.min(1000 * 2 ** attempt, 8000)),
      refetchOnWindowFocus: false,
    },
  },
});
