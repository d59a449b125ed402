import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useViewer } from '#web/features/auth/use-viewer.ts';
import { useSubscription } from '#web/features/billing/use-subscription.ts';
import { loadOfflineStore, OFFLINE_QUERY_KEY } from '#web/lazy-chunks.ts';

/**
 * Keeps the device's record of the subscription in step with the server whenever the server
 * answers, so downloads stop playing once a subscription lapses (and play again on renewal). Inside
 * the apps a lapse removes them from the device instead (offline-store's removeCopiesOnLapse).
 */
function useOfflineEntitlementSync(): void {
  const viewer = useViewer();
  const subscription = useSubscription(viewer.signedIn && !viewer.offline);
  const userId = viewer.user?.id;
  const data = subscription.data;
  const client = useQueryClient();
  useEffect(() => {
    if (!userId || viewer.offline || !data || typeof indexedDB === 'undefined') return;
    const validUntil = data.subscription?.currentPeriodEnd ?? data.subscription?.trialEnd ?? null;
    void loadOfflineStore()
      .then(async ({ recordEntitlement, removeCopiesOnLapse }) => {
        await recordEntitlement({ userId, subscribed: data.subscribed, validUntil: data.subscribed ? validUntil : null, checkedAt: new Date().toISOString() });
        if (data.subscribed) return;
        await removeCopiesOnLapse(userId);
        await client.invalidateQueries({ queryKey: OFFLINE_QUERY_KEY });
      })
      .catch((error: unknown) => console.warn('offline entitlement not recorded', error));
  }, [userId, viewer.offline, data, client]);
}

/** The sync, as a component the player mounts once its chunk has loaded (lazy-chunks.ts). It renders nothing. */
export function OfflineEntitlementSync(): null {
  useOfflineEntitlementSync();
  return null;
}
