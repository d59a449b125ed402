/**
 * Programmes on the web (decision 0051): the public list and detail, and the signed-in person's
 * progress, which the server derives from their sessions (so it is the same on every device). Progress
 * is read fresh on every visit (staleTime 0): a session finished a minute ago may have done a day.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { MeditationCard } from '#shared/contracts/catalogue.ts';
import type { MyProgrammesResponse, ProgrammeDetail, ProgrammeProgressResponse, ProgrammesResponse } from '#shared/contracts/programmes.ts';
import { useViewer } from '#web/features/auth/use-viewer.ts';
import { api } from '#web/lib/api.ts';

const PROGRAMMES_KEY = ['programmes'] as const;
const MINE_KEY = ['programmes', 'mine'] as const;

export function useProgrammes() {
  return useQuery({ queryKey: PROGRAMMES_KEY, queryFn: ({ signal }) => api<ProgrammesResponse>('/api/programmes', { signal }) });
}

export function useProgramme(slug: string) {
  return useQuery({ queryKey: [...PROGRAMMES_KEY, 'detail', slug], queryFn: ({ signal }) => api<ProgrammeDetail>(`/api/programmes/${encodeURIComponent(slug)}`, { signal }) });
}

/** Every programme the signed-in person has started (home's card); nothing for a visitor. */
export function useMyProgrammes() {
  const viewer = useViewer();
  return useQuery({
    queryKey: [...MINE_KEY, viewer.user?.id ?? null],
    queryFn: ({ signal }) => api<MyProgrammesResponse>('/api/me/programmes', { signal }),
    enabled: viewer.signedIn && !viewer.offline,
    staleTime: 0,
  });
}

export function useProgrammeProgress(slug: string) {
  const viewer = useViewer();
  return useQuery({
    queryKey: [...MINE_KEY, viewer.user?.id ?? null, slug],
    queryFn: ({ signal }) => api<ProgrammeProgressResponse>(`/api/programmes/${encodeURIComponent(slug)}/progress`, { signal }),
    enabled: viewer.signedIn && !viewer.offline,
    staleTime: 0,
  });
}

/** This device's IANA time zone, whose calendar days open the next day. */
function deviceTimeZone(): string {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  } catch {
    return 'UTC';
  }
}

type Change = { kind: 'start' | 'restart' } | { kind: 'leave' } | { kind: 'open-next' };

/** Start, restart, leave and "Don't wait": each answered by the server's progress, which replaces the cached one. */
export function useProgrammeChange(slug: string) {
  const client = useQueryClient();
  const base = `/api/programmes/${encodeURIComponent(slug)}/enrolment`;
  return useMutation({
    mutationFn: async (change: Change): Promise<ProgrammeProgressResponse> => {
      if (change.kind === 'leave') {
        await api<{ left: true }>(base, { method: 'DELETE' });
        return { progress: null };
      }
      if (change.kind === 'open-next') return api<ProgrammeProgressResponse>(`${base}/open-next`, { method: 'POST' });
      return api<ProgrammeProgressResponse>(base, { method: 'POST', body: { timeZone: deviceTimeZone(), restart: change.kind === 'restart' } });
    },
    onSuccess: async () => {
      await client.invalidateQueries({ queryKey: MINE_KEY });
    },
  });
}

/** The catalogue card of a day's meditation (what the player plays), from the listing the app already keeps. */
export function cardOf(all: readonly MeditationCard[] | undefined, id: string): MeditationCard | undefined {
  return all?.find((m) => m.id === id);
}
