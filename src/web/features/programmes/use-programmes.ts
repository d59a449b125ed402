/**
 * Programmes on the web (decision 0051): the public list and detail, and the signed-in person's
 * progress, which the server derives from their sessions (so it is the same on every device). Progress
 * is read fresh on every visit (staleTime 0): a session finished a minute ago may have done a day.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { MeditationCard } from '#shared/contracts/catalogue.ts';
import type { ProgrammeProgressResponse } from '#shared/contracts/programmes.ts';
import { programmesApi } from '#shared/contracts/programmes.routes.ts';
import { queryKeyOf } from '#shared/contracts/route.ts';
import { useViewer } from '#web/features/auth/use-viewer.ts';
import { call } from '#web/lib/call.ts';

export function useProgrammes() {
  return useQuery({ queryKey: queryKeyOf(programmesApi.list), queryFn: ({ signal }) => call(programmesApi.list, {}, { signal }) });
}

export function useProgramme(slug: string) {
  const input = { params: { slug } };
  return useQuery({ queryKey: queryKeyOf(programmesApi.get, input), queryFn: ({ signal }) => call(programmesApi.get, input, { signal }) });
}

/** Every programme the signed-in person has started (home's card); nothing for a visitor. */
export function useMyProgrammes() {
  const viewer = useViewer();
  return useQuery({
    // Each account's own: a device that changes hands never shows the last person's progress.
    queryKey: [...queryKeyOf(programmesApi.mine), viewer.user?.id ?? null],
    queryFn: ({ signal }) => call(programmesApi.mine, {}, { signal }),
    enabled: viewer.signedIn && !viewer.offline,
    staleTime: 0,
  });
}

export function useProgrammeProgress(slug: string) {
  const viewer = useViewer();
  const input = { params: { slug } };
  return useQuery({
    queryKey: [...queryKeyOf(programmesApi.progress, input), viewer.user?.id ?? null],
    queryFn: ({ signal }) => call(programmesApi.progress, input, { signal }),
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
  const params = { slug };
  return useMutation({
    mutationFn: async (change: Change): Promise<ProgrammeProgressResponse> => {
      if (change.kind === 'leave') {
        await call(programmesApi.leave, { params });
        return { progress: null };
      }
      if (change.kind === 'open-next') return call(programmesApi.openNext, { params });
      return call(programmesApi.enrol, { params, body: { timeZone: deviceTimeZone(), restart: change.kind === 'restart' } });
    },
    onSuccess: async () => {
      // The person's enrolments and each programme's progress.
      await client.invalidateQueries({ queryKey: queryKeyOf(programmesApi.mine) });
      await client.invalidateQueries({ queryKey: queryKeyOf(programmesApi.progress) });
    },
  });
}

/** The catalogue card of a day's meditation (what the player plays), from the listing the app already keeps. */
export function cardOf(all: readonly MeditationCard[] | undefined, id: string): MeditationCard | undefined {
  return all?.find((m) => m.id === id);
}
