/**
 * A list loaded from the server, in its four states: loading (a spinner that says what), failed
 * (the reason, announced), empty (what to do first) and the list itself.
 */
import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Spinner } from '#web/components/ui/spinner.tsx';

export function ListStates<T>({ query, loading, failed, empty, children }: { query: UseQueryResult<T[]>; loading: string; failed: string; empty: string; children: (items: T[]) => ReactNode }) {
  if (query.isPending) return <Spinner label={loading} />;
  if (query.isError) {
    return (
      <p role="alert">
        {failed}: {query.error.message}
      </p>
    );
  }
  if (query.data.length === 0) return <p className="text-stone-600 dark:text-stone-300">{empty}</p>;
  return children(query.data);
}
