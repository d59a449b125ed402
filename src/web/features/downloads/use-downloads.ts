/**
 * Downloading favourites for offline listening, with progress (the device's record of the
 * subscription is kept by use-offline-entitlement-sync.ts, which the player mounts).
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { toast } from '#web/lib/toast.ts';
import type { MeditationCard } from '#shared/contracts/catalogue.ts';
import { mediaApi } from '#shared/contracts/media.routes.ts';
import { ApiError } from '#web/lib/api.ts';
import { call } from '#web/lib/call.ts';
import { useViewer } from '#web/features/auth/use-viewer.ts';
import { platform } from '#web/platform/platform.ts';
import { listOfflineCopies, removeOfflineCopy, saveOfflineCopy } from '#web/features/downloads/offline-store.ts';
import { OFFLINE_QUERY_KEY } from '#web/lazy-chunks.ts';

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
      const playback = await call(mediaApi.playback, { params: { id: meditation.id } });
      const response = await fetch(platform().apiUrl(playback.url));
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
