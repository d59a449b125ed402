import { useQuery } from '@tanstack/react-query';
import type { ListMeditationsResponse } from '#shared/contracts/catalogue.ts';
import { api } from '#web/lib/api.ts';

export function useMeditations(slug: string) {
  return useQuery({
    queryKey: ['meditations', slug],
    queryFn: ({ signal }) => api<ListMeditationsResponse>(`/api/meditations?category=${encodeURIComponent(slug)}`, { signal }),
  });
}
