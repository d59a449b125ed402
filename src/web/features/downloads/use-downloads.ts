/**
 * Downloading favourites for offline listening, with progress, and keeping the device's record of
 * the subscription current so a lapsed subscription pauses the local copies.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { toast } from 'sonner';
import type { MeditationCard } from '#shared/contracts/catalogue.ts';
import type { PlaybackResponse } from '#shared/contracts/media.ts';
import { api, ApiError } from '#web/lib/api.ts';
import { useViewer } from '#web/features/auth/use-viewer.ts';
import { useSubscription } from '#web/features/billing/use-subscription.ts';
import { listOfflineCopies, recordEntitlement, removeOfflineCopy, saveOfflineCopy } from '#web/features/downloads/offline-store.ts';

const OFFLINE_QUERY_KEY = ['offline-copies'] as const;

export function useOfflineCopies() {
  const viewer = useViewer();
  const userId = viewer.user?.id ?? null;
  return useQuery({
    queryKey: [...OFFLINE_QUERY_KEY, userId],
    queryFn: () => (userId ? listOfflineCopies(userId) : []),
    enabled: Boolean(userId) && typeof indexedDB !== 'undefined',
    networkMode: 'always',
  });
}

/** Reads a response body while reporting progress (0–100) when the size is known. */
async function readWithProgress(response: Response, onProgress: (percent: number) => void): Promise<ArrayBuffer> {
  const total = Number(response.headers.get('content-length')) || 0;
  if (!response.body || !total) return response.arrayBuffer();
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let received = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    received += value.byteLength;
    onProgress(Math.min(99, Math.round((received / total) * 100)));
  }
  const out = new Uint8Array(received);
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return out.buffer;
}

export function useDownloads() {
  const viewer = useViewer();
  const userId = viewer.user?.id ?? null;
  const client = useQueryClient();
  const copies = useOfflineCopies();
  const [progress, setProgress] = useState<Partial<Record<string, number>>>({});
  const key = [...OFFLINE_QUERY_KEY, userId];

  const download = useMutation({
    mutationFn: async (meditation: MeditationCard) => {
      if (!userId) throw new Error('Please sign in to download meditations.');
      setProgress((p) => ({ ...p, [meditation.id]: 0 }));
      // The server checks entitlement here: only subscribers get a URL.
      const playback = await api<PlaybackResponse>(`/api/meditations/${meditation.id}/playback`);
      const response = await fetch(playback.url);
      if (!response.ok) throw new Error('The download could not start. Please try again.');
      const audio = await readWithProgress(response, (percent) => setProgress((p) => ({ ...p, [meditation.id]: percent })));
      return saveOfflineCopy({ userId, meditation, transcript: playback.transcript, mimeType: playback.mimeType, audio });
    },
    onSuccess: (_copy, meditation) => toast.success('Downloaded for offline listening', { description: `“${meditation.title}” is ready without a connection.` }),
    onError: (error) => toast.error('Download failed', { description: error instanceof ApiError || error instanceof Error ? error.message : 'Please try again.' }),
    onSettled: (_d, _e, meditation) => {
      setProgress(({ [meditation.id]: _, ...rest }) => rest);
      void client.invalidateQueries({ queryKey: key });
    },
  });

  const remove = async (meditationId: string) => {
    if (!userId) return;
    await removeOfflineCopy(userId, meditationId);
    await client.invalidateQueries({ queryKey: key });
  };

  const isOffline = (meditationId: string) => Boolean(copies.data?.some((c) => c.meditationId === meditationId));
  return { isOffline, progress, download: (m: MeditationCard) => download.mutate(m), remove };
}

/**
 * Keeps the device's record of the subscription in step with the server whenever the server
 * answers, so downloads stop playing once a subscription lapses (and play again on renewal).
 */
export function useOfflineEntitlementSync(): void {
  const viewer = useViewer();
  const subscription = useSubscription(viewer.signedIn && !viewer.offline);
  const userId = viewer.user?.id;
  const data = subscription.data;
  useEffect(() => {
    if (!userId || viewer.offline || !data || typeof indexedDB === 'undefined') return;
    const validUntil = data.subscription?.currentPeriodEnd ?? data.subscription?.trialEnd ?? null;
    void recordEntitlement({ userId, subscribed: data.subscribed, validUntil: data.subscribed ? validUntil : null, checkedAt: new Date().toISOString() }).catch((error: unknown) =>
      console.warn('offline entitlement not recorded', error),
    );
  }, [userId, viewer.offline, data]);
}
