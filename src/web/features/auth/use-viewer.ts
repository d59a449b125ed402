/**
 * Who is looking at the page, from GET /api/me. The server stays the authority for every
 * decision; this only shapes what the UI offers.
 */
import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import type { MeResponse } from '#shared/contracts/auth.ts';
import { authApi } from '#shared/contracts/auth.routes.ts';
import { queryKeyOf } from '#shared/contracts/route.ts';
import { STORAGE_KEYS } from '#shared/constants.ts';
import type { RememberedViewer } from '#shared/remembered-viewer.ts';
import { can, type Who } from '#shared/policies.ts';
import { ApiError } from '#web/lib/api.ts';
import { call } from '#web/lib/call.ts';
import { readStored, removeStored, writeStored } from '#web/lib/storage.ts';
import { prefetchForSignedIn } from '#web/lazy-chunks.ts';
import { useHydrated } from '#web/lib/hydration.tsx';

export type Viewer = {
  status: 'loading' | 'signed-in' | 'signed-out';
  signedIn: boolean;
  user: NonNullable<MeResponse['user']> | null;
  role: MeResponse['role'];
  /** The caller as the rules see them (`can(viewer.who, …)`, src/shared/policies.ts): null for a visitor or while loading. */
  who: Who;
  /** Subscribers and staff may listen to every meditation (the server asks `can` again on every playback URL). */
  canListen: boolean;
  /** True when the server could not be reached and this is the device's last known answer. */
  offline: boolean;
};

type Snapshot = MeResponse & { offline?: boolean };

/**
 * GET /api/me, remembering the last answer on the device so an offline visit (app shell from the
 * service worker) still knows who was signed in and can play downloads. Nothing is decided from
 * the snapshot on the server; it only serves the offline screens.
 */
async function fetchMe(signal: AbortSignal): Promise<Snapshot> {
  try {
    const me = await call(authApi.me, {}, { signal });
    // If storage is unavailable, offline visits just start signed out.
    if (me.user) {
      writeStored(STORAGE_KEYS.viewerSnapshot, JSON.stringify({ user: me.user, role: me.role, subscribed: me.subscribed }));
      // Signed in, perhaps for the first time on this device: what plays their offline copies, at idle.
      prefetchForSignedIn();
    } else {
      removeStored(STORAGE_KEYS.viewerSnapshot);
    }
    return me;
  } catch (error) {
    if (error instanceof ApiError && error.code === 'network') {
      const saved = readSnapshot();
      if (saved) return { ...saved, offline: true };
    }
    throw error;
  }
}

function readSnapshot(): MeResponse | null {
  try {
    const parsed = JSON.parse(readStored(STORAGE_KEYS.viewerSnapshot) ?? 'null') as MeResponse | null;
    return parsed?.user?.id ? parsed : null;
  } catch {
    return null;
  }
}

export const VIEWER_QUERY_KEY = queryKeyOf(authApi.me);

/** The viewer's query, as every reader of it and the boot (which may fetch it before hydrating) ask for it. */
export const viewerQuery = queryOptions({ queryKey: VIEWER_QUERY_KEY, queryFn: ({ signal }) => fetchMe(signal), staleTime: 60_000 });

/**
 * Whom this device remembered signed in when the page loaded (shared/remembered-viewer.ts), for what
 * is painted before /api/me answers. In the browser only (after hydration): the server's pages are for nobody.
 */
export const rememberedViewer = () => document.documentElement.dataset.viewer as RememberedViewer | undefined;

export function useViewer(): Viewer {
  const query = useQuery(viewerQuery);
  const hydrated = useHydrated();
  if (query.isPending || !hydrated) return { status: 'loading', signedIn: false, user: null, role: null, who: null, canListen: false, offline: false };
  const user = query.data?.user ?? null;
  const who: Who = user && query.data?.role ? { userId: user.id, role: query.data.role, subscribed: query.data.subscribed } : null;
  return {
    status: user ? 'signed-in' : 'signed-out',
    signedIn: Boolean(user),
    user,
    role: query.data?.role ?? null,
    who,
    canListen: can(who, 'listen', { free: false }),
    offline: Boolean(query.data?.offline),
  };
}

/** How the account signs in ('credential' for a password, 'google', 'apple'): from the same /api/me answer. */
export function useSignInMethods(): string[] | undefined {
  const query = useQuery({ ...viewerQuery, select: (me) => me.providers ?? [] });
  return query.data;
}

/** Re-reads /api/me after sign-in or sign-out (the spec's SIGNED_IN / SIGNED_OUT events). */
export function useRefreshViewer() {
  const client = useQueryClient();
  return async () => {
    await client.invalidateQueries({ queryKey: VIEWER_QUERY_KEY });
    await client.refetchQueries({ queryKey: VIEWER_QUERY_KEY });
  };
}
