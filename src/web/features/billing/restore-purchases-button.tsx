/**
 * 'Restore Purchases' inside the apps (App Review 3.1.1; issue 35, item 3), on /subscribe and in
 * Account: asks the store (RevenueCat) for this person's purchases, syncs them to the server, then
 * shows what the server now says. Not on the web, which has no store purchases to restore.
 */
import LoaderCircle from 'lucide-react/icons/loader-circle';
import RotateCw from 'lucide-react/icons/rotate-cw';
import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { RESTORE_PURCHASES_LABEL } from '#shared/billing.ts';
import { PURCHASE_MESSAGES } from '#shared/purchases.ts';
import { Button } from '#web/components/ui/button.tsx';
import { VIEWER_QUERY_KEY } from '#web/features/auth/use-viewer.ts';
import { SUBSCRIPTION_QUERY_KEY } from '#web/features/billing/use-subscription.ts';
import { toast } from '#web/lib/toast.ts';
import type { Platform } from '#web/platform/platform.ts';

type Props = {
  purchases: NonNullable<Platform['purchases']>;
  signedIn: boolean;
  /** Purchases belong to an account: a visitor is asked to sign in first. */
  onNeedAccount?: () => void;
  className?: string;
  /** 'secondary' on the offer's teal card, 'outline' on a plain card. */
  variant?: 'secondary' | 'outline';
};

export function RestorePurchasesButton({ purchases, signedIn, onNeedAccount, className, variant = 'outline' }: Props) {
  const client = useQueryClient();
  const [busy, setBusy] = useState(false);

  const restore = async () => {
    if (!signedIn) {
      onNeedAccount?.();
      return;
    }
    if (busy) return;
    setBusy(true);
    try {
      const { active } = await (await purchases.load()).restore();
      await client.invalidateQueries({ queryKey: SUBSCRIPTION_QUERY_KEY });
      await client.invalidateQueries({ queryKey: VIEWER_QUERY_KEY });
      if (active) toast.success(PURCHASE_MESSAGES.restored);
      else toast.info(PURCHASE_MESSAGES.nothingToRestore);
    } catch (error) {
      // store-purchases.ts words each cause (another account's purchase, the network, …).
      toast.error(error instanceof Error && error.message ? error.message : PURCHASE_MESSAGES.restoreFailed);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Button variant={variant} className={className} onClick={() => void restore()} disabled={busy} aria-busy={busy}>
      {busy ? <LoaderCircle className="size-4 animate-spin" aria-hidden /> : <RotateCw className="size-4" aria-hidden />}
      {RESTORE_PURCHASES_LABEL}
    </Button>
  );
}
