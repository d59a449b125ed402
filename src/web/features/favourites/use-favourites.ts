/**
 * Favourites live on the server (synced across devices). The heart updates at once and rolls
 * back if the server refuses; toasts name the meditation (spec 'Meditations and favourites').
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { toast } from '#web/lib/toast.ts';
import type { MeditationCard } from '#shared/contracts/catalogue.ts';
import type { Favourite } from '#shared/contracts/favourites.ts';
import { favouritesApi } from '#shared/contracts/favourites.routes.ts';
import { queryKeyOf } from '#shared/contracts/route.ts';
import { FAVOURITES_MESSAGES } from '#shared/favourites-messages.ts';
import { withNext } from '#shared/next-path.ts';
import { ApiError } from '#web/lib/api.ts';
import { call } from '#web/lib/call.ts';
import { useViewer } from '#web/features/auth/use-viewer.ts';
import { loadOfflineStore } from '#web/lazy-chunks.ts';

const M = FAVOURITES_MESSAGES;
/** Each account's list apart: a device that changes hands never shows the last person's hearts. */
const favouritesKey = (userId: string | undefined) => [...queryKeyOf(favouritesApi.list), userId ?? null];

export function useFavourites() {
  const viewer = useViewer();
  return useQuery({
    queryKey: favouritesKey(viewer.user?.id),
    queryFn: async ({ signal }) => {
      try {
        return (await call(favouritesApi.list, {}, { signal })).favourites;
      } catch (error) {
        // Offline: the downloads on this device are the favourites we can still offer.
        if (error instanceof ApiError && error.code === 'network' && viewer.user && typeof indexedDB !== 'undefined') {
          const copies = await (await loadOfflineStore()).listOfflineCopies(viewer.user.id);
          if (copies.length) return copies.map((c): Favourite => ({ meditation: c.meditation, savedAt: c.savedAt }));
        }
        throw error;
      }
    },
    enabled: viewer.signedIn,
  });
}

type Change = { meditation: MeditationCard; save: boolean };

export function useToggleFavourite() {
  const viewer = useViewer();
  const client = useQueryClient();
  const key = favouritesKey(viewer.user?.id);
  const favourites = useFavourites();
  const navigate = useNavigate();
  const location = useLocation();

  const mutation = useMutation({
    mutationFn: async ({ meditation, save }: Change): Promise<void> => {
      await call(save ? favouritesApi.save : favouritesApi.remove, { params: { id: meditation.id } }, { keepalive: true });
    },
    onMutate: async ({ meditation, save }): Promise<{ before: Favourite[] | undefined }> => {
      await client.cancelQueries({ queryKey: key });
      const before = client.getQueryData<Favourite[]>(key);
      client.setQueryData<Favourite[]>(key, (list = []) =>
        save ? [{ meditation, savedAt: new Date().toISOString() }, ...list.filter((f) => f.meditation.id !== meditation.id)] : list.filter((f) => f.meditation.id !== meditation.id),
      );
      return { before };
    },
    onError: (error, { save }, context) => {
      client.setQueryData(key, context?.before);
      if (save) toast.error(M.saveFailedTitle, { description: error instanceof ApiError && error.status !== 404 ? error.message : M.saveFailedBody });
      else toast.error(M.removeFailedTitle, { description: M.removeFailedBody });
    },
    onSuccess: (_data, { meditation, save }) => {
      if (save) toast.success(M.added(meditation.title));
      else toast.success(M.removedTitle, { description: M.removed(meditation.title) });
    },
    onSettled: () => client.invalidateQueries({ queryKey: key }),
  });

  const isSaved = (id: string) => Boolean(favourites.data?.some((f) => f.meditation.id === id));
  /** Taps made before /api/me answered, by meditation: carried out once it is known who tapped. */
  const waiting = useRef(new Map<string, Change>());

  /**
   * Save or remove. Signed-out visitors get the spec's words, as a note rather than an error (they
   * did nothing wrong), with the way to an account that brings them back here. A tap before the
   * viewer is known (a prepared page, or the apps reading their session from the device first)
   * waits for the answer: it used to tell signed-in people to sign in, and save nothing.
   */
  const toggle = (meditation: MeditationCard | null, save = !isSaved(meditation?.id ?? '')) => {
    if (viewer.status === 'loading' && meditation?.id) {
      waiting.current.set(meditation.id, { meditation, save });
      return;
    }
    if (!viewer.signedIn) {
      const signUp = withNext('/sign-up', `${location.pathname}${location.search}`);
      toast.info(M.authRequiredTitle, { description: M.authRequiredBody, action: { label: M.createAccount, onClick: () => void navigate(signUp) } });
      return;
    }
    if (!meditation?.id || !meditation.title) { toast.error(M.saveFailedTitle, { description: M.saveFailedBody }); return; }
    mutation.mutate({ meditation, save });
  };

  useEffect(() => {
    if (viewer.status === 'loading' || waiting.current.size === 0) return;
    const taps = [...waiting.current.values()];
    waiting.current.clear();
    for (const { meditation, save } of taps) toggle(meditation, save);
  });

  return { isSaved, toggle, remove: (meditation: MeditationCard) => toggle(meditation, false), pending: mutation.isPending };
}
