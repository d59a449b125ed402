/**
 * Who is looking at the page, from GET /api/me. The server stays the authority for every
 * decision; this only shapes what the UI offers.
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { MeResponse } from '#shared/contracts/auth.ts';
import { api } from '#web/lib/api.ts';

export type Viewer = {
  status: 'loading' | 'signed-in' | 'signed-out';
  signedIn: boolean;
  user: NonNullable<MeResponse['user']> | null;
  role: MeResponse['role'];
  /** Subscribers and admins may listen (as decided by the server; it checks again on every playback URL). */
  canListen: boolean;
};

export const VIEWER_QUERY_KEY = ['me'] as const;

export function useViewer(): Viewer {
  const query = useQuery({ queryKey: VIEWER_QUERY_KEY, queryFn: ({ signal }) => api<MeResponse>('/api/me', { signal }), staleTime: 60_000 });
  if (query.isPending) return { status: 'loading', signedIn: false, user: null, role: null, canListen: false };
  const user = query.data?.user ?? null;
  return { status: user ? 'signed-in' : 'signed-out', signedIn: Boolean(user), user, role: query.data?.role ?? null, canListen: Boolean(user && query.data?.subscribed) };
}

/** Re-reads /api/me after sign-in or sign-out (the spec's SIGNED_IN / SIGNED_OUT events). */
export function useRefreshViewer() {
  const client = useQueryClient();
  return async () => {
    await client.invalidateQueries({ queryKey: VIEWER_QUERY_KEY });
    await client.refetchQueries({ queryKey: VIEWER_QUERY_KEY });
  };
}
