/**
 * Where a play's audio comes from: a signed streaming URL from the entitlement endpoint, or an
 * offline copy on this device (downloads). The server decides entitlement on every URL.
 */
import { mediaApi } from '#shared/contracts/media.routes.ts';
import { ApiError } from '#web/lib/api.ts';
import { call } from '#web/lib/call.ts';
import type { OfflineCopyError } from '#web/features/downloads/offline-store.ts';
import { loadOfflineStore } from '#web/lazy-chunks.ts';
import { platform } from '#web/platform/platform.ts';

export type PlaybackSource = {
  url: string;
  /** Epoch ms the signed URL stops working; null for local copies. */
  expiresAt: number | null;
  transcript: string | null;
  local: boolean;
  /** Frees an object URL made for a local copy. */
  release?: () => void;
};

export async function streamingSource(meditationId: string, signal?: AbortSignal): Promise<PlaybackSource> {
  const response = await call(mediaApi.playback, { params: { id: meditationId } }, { signal });
  // The signed address is a path on the server: inside the apps, the configured server's.
  return { url: platform().apiUrl(response.url), expiresAt: Date.parse(response.expiresAt), transcript: response.transcript, local: false };
}

/**
 * The source for a new play. An offline copy on this device is preferred (no data used, works
 * without a connection); if it exists but cannot be used, the stream takes over and the caller is
 * told (spec: 'Offline playback failed' falls back to streaming). A lapsed subscription is not a
 * failure of the copy: the stream then asks the server, which answers for the subscription.
 */
export async function resolveSource(input: { meditationId: string; userId: string | null; signal: AbortSignal; onLocalFailure: (error: unknown) => void }): Promise<PlaybackSource> {
  let lapsed: OfflineCopyError | null = null;
  if (input.userId && typeof indexedDB !== 'undefined') {
    // The store's chunk is prefetched once the page is idle (lazy-chunks.ts), so this works offline.
    const store = await loadOfflineStore().catch((error: unknown) => {
      console.warn('player: offline copies unavailable, streaming', error);
      return null;
    });
    if (store) {
      try {
        const { url, release, copy } = await store.openOfflineCopy(input.userId, input.meditationId);
        return { url, expiresAt: null, transcript: copy.transcript, local: true, release };
      } catch (error) {
        if (error instanceof store.OfflineCopyError && error.reason === 'lapsed') lapsed = error;
        else if (!(error instanceof store.OfflineCopyError && error.reason === 'missing')) input.onLocalFailure(error);
      }
    }
  }
  try {
    return await streamingSource(input.meditationId, input.signal);
  } catch (error) {
    // Offline with a lapsed subscription: say why the download will not play, not just 'offline'.
    if (lapsed && error instanceof ApiError && error.code === 'network') throw new ApiError(0, 'offline/lapsed', lapsed.message);
    throw error;
  }
}
