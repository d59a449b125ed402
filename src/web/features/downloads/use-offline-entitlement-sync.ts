import { useEffect } from 'react';
import { useViewer } from '#web/features/auth/use-viewer.ts';
import { useSubscription } from '#web/features/billing/use-subscription.ts';
import { loadOfflineStore } from '#web/lazy-chunks.ts';

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
    void loadOfflineStore()
      .then(({ recordEntitlement }) => recordEntitlement({ userId, subscribed: data.subscribed, validUntil: data.subscribed ? validUntil : null, checkedAt: new Date().toISOString() }))
      .catch((error: unknown) => console.warn('offline entitlement not recorded', error));
  }, [userId, viewer.offline, data]);
}
