import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { billingApi } from '#shared/contracts/billing.routes.ts';
import { queryKeyOf } from '#shared/contracts/route.ts';
import type { Plan } from '#shared/billing.ts';
import { call } from '#web/lib/call.ts';
import { VIEWER_QUERY_KEY } from '#web/features/auth/use-viewer.ts';

export const SUBSCRIPTION_QUERY_KEY = queryKeyOf(billingApi.subscription);

export function useSubscription(enabled = true) {
  return useQuery({
    queryKey: SUBSCRIPTION_QUERY_KEY,
    queryFn: ({ signal }) => call(billingApi.subscription, {}, { signal }),
    enabled,
    staleTime: 10_000,
  });
}

export function startCheckout(plan: Plan) {
  return call(billingApi.checkout, { body: { plan } });
}

/** Cancel at period end (cancel=true) or undo it (cancel=false); refreshes what depends on it. */
export function useCancelSubscription() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (cancel: boolean) => call(billingApi.cancel, { body: { cancel } }),
    onSuccess: async () => {
      await client.invalidateQueries({ queryKey: SUBSCRIPTION_QUERY_KEY });
      await client.invalidateQueries({ queryKey: VIEWER_QUERY_KEY });
    },
  });
}

export function openBillingPortal() {
  return call(billingApi.portal);
}

export const formatDate = (iso: string | null | undefined) =>
  iso ? new Date(iso).toLocaleDateString('en-GB', { day: 'numeric', month: 'long', year: 'numeric' }) : '';
