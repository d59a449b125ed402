import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { CheckoutResponse, Entitlement, PortalResponse, SubscriptionResponse } from '#shared/contracts/billing.ts';
import type { Plan } from '#shared/billing.ts';
import { api } from '#web/lib/api.ts';
import { VIEWER_QUERY_KEY } from '#web/features/auth/use-viewer.ts';

export const SUBSCRIPTION_QUERY_KEY = ['subscription'] as const;

export function useSubscription(enabled = true) {
  return useQuery({
    queryKey: SUBSCRIPTION_QUERY_KEY,
    queryFn: ({ signal }) => api<SubscriptionResponse>('/api/subscription', { signal }),
    enabled,
    staleTime: 10_000,
  });
}

export function startCheckout(plan: Plan) {
  return api<CheckoutResponse>('/api/billing/checkout', { method: 'POST', body: { plan } });
}

/** Cancel at period end (cancel=true) or undo it (cancel=false); refreshes what depends on it. */
export function useCancelSubscription() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (cancel: boolean) => api<Entitlement>('/api/billing/cancel', { method: 'POST', body: { cancel } }),
    onSuccess: async () => {
      await client.invalidateQueries({ queryKey: SUBSCRIPTION_QUERY_KEY });
      await client.invalidateQueries({ queryKey: VIEWER_QUERY_KEY });
    },
  });
}

export function openBillingPortal() {
  return api<PortalResponse>('/api/billing/portal', { method: 'POST', body: {} });
}

export const formatDate = (iso: string | null | undefined) =>
  iso ? new Date(iso).toLocaleDateString('en-GB', { day: 'numeric', month: 'long', year: 'numeric' }) : '';
