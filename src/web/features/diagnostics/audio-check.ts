/**
 * Diagnostics' audio check (spec: 'a HEAD request on audio URLs is made for diagnostics'): for
 * the meditations on the screen (the listings the page has loaded), ask for each one's playback
 * URL, then send a HEAD request to it, and report the status. Support sees at once whether audio
 * is refused (not entitled), missing (404) or reachable, without playing anything.
 */
import type { QueryClient } from '@tanstack/react-query';
import type { ListMeditationsResponse } from '#shared/contracts/catalogue.ts';
import { catalogueApi } from '#shared/contracts/catalogue.routes.ts';
import { mediaApi } from '#shared/contracts/media.routes.ts';
import { queryKeyOf } from '#shared/contracts/route.ts';
import { ApiError } from '#web/lib/api.ts';
import { call } from '#web/lib/call.ts';

export type AudioCheck = { id: string; title: string; status: string };

/** At most this many: a diagnostics tap must not become a burst of requests. */
const MAX_CHECKED = 6;

/** The meditations of the listings currently shown (active queries), first ones first, each once. */
export function meditationsInView(client: QueryClient): { id: string; title: string }[] {
  const seen = new Map<string, string>();
  for (const query of client.getQueryCache().findAll({ queryKey: queryKeyOf(catalogueApi.list), type: 'active' })) {
    const data = query.state.data as ListMeditationsResponse | undefined;
    for (const m of data?.meditations ?? []) if (!seen.has(m.id)) seen.set(m.id, m.title);
  }
  return [...seen].slice(0, MAX_CHECKED).map(([id, title]) => ({ id, title }));
}

async function checkOne({ id, title }: { id: string; title: string }): Promise<AudioCheck> {
  let url: string;
  try {
    url = (await call(mediaApi.playback, { params: { id } })).url;
  } catch (error) {
    return { id, title, status: error instanceof ApiError ? `no URL (${error.status || 'offline'})` : 'no URL' };
  }
  try {
    const response = await fetch(url, { method: 'HEAD', credentials: 'same-origin', cache: 'no-store' });
    return { id, title, status: `HEAD ${response.status}${response.ok ? ' OK' : ''}` };
  } catch {
    return { id, title, status: 'HEAD failed (offline)' };
  }
}

export function checkAudio(meditations: { id: string; title: string }[]): Promise<AudioCheck[]> {
  return Promise.all(meditations.map(checkOne));
}
