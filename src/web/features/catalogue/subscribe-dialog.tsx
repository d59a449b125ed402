import { useNavigate } from 'react-router';
import { START_TRIAL_LABEL, TRIAL_OFFER_TEXT } from '#shared/trial-offer.ts';
import { CATALOGUE_MESSAGES } from '#shared/catalogue-messages.ts';
import { trialIntentPath } from '#shared/next-path.ts';
import { Button } from '#web/components/ui/button.tsx';
import { Dialog } from '#web/components/ui/dialog.tsx';
import { useViewer } from '#web/features/auth/use-viewer.ts';
import { useSubscription } from '#web/features/billing/use-subscription.ts';

/**
 * Shown when someone without a subscription taps a locked meditation: the spec's words, then the
 * offer itself (price and trial terms) and a one-tap trial, so nobody has to go looking for them.
 * The trial goes through /subscribe?start=yearly: sign-up first for a visitor, checkout otherwise.
 * Someone whose trial is used is not offered one.
 */
export function SubscribeDialog({ open, onOpenChange, title }: { open: boolean; onOpenChange: (open: boolean) => void; title?: string }) {
  const navigate = useNavigate();
  const viewer = useViewer();
  const subscription = useSubscription(viewer.signedIn);
  const trialOnOffer = !viewer.signedIn || subscription.data?.trialEligible === true;
  const go = (to: string) => {
    onOpenChange(false);
    void navigate(to);
  };
  return (
    <Dialog open={open} onOpenChange={onOpenChange} title={title ?? 'Subscribe to listen'} description={CATALOGUE_MESSAGES.subscribeDialogBody}>
      {trialOnOffer ? (
        <p className="mt-4 rounded-2xl bg-teal-50 px-4 py-3 font-medium text-teal-900 dark:bg-teal-950/60 dark:text-teal-100" data-testid="trial-offer">
          {TRIAL_OFFER_TEXT}
        </p>
      ) : null}
      {/* In the order they are seen, at every width: the offer first, 'Maybe Later' last (issue 38: it came first). */}
      <div className="mt-6 flex flex-col gap-3 sm:flex-row sm:flex-wrap sm:justify-end">
        {trialOnOffer ? <Button onClick={() => go(trialIntentPath('yearly'))}>{START_TRIAL_LABEL}</Button> : null}
        <Button variant={trialOnOffer ? 'outline' : 'primary'} onClick={() => go('/subscribe')}>
          {CATALOGUE_MESSAGES.subscribeToContinue}
        </Button>
        <Button variant="outline" onClick={() => onOpenChange(false)}>
          {CATALOGUE_MESSAGES.maybeLater}
        </Button>
      </div>
    </Dialog>
  );
}
