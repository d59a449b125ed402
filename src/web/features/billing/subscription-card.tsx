/**
 * Account › Settings: the real plan, status and dates, with Manage and Cancel (or Resume); inside the
 * apps also 'Restore Purchases' (App Review 3.1.1; issue 35, item 3).
 */
import CreditCard from 'lucide-react/icons/credit-card';
import Sparkles from 'lucide-react/icons/sparkles';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { toast } from '#web/lib/toast.ts';
import { BILLING_MESSAGES, PLAN_DETAILS } from '#shared/billing.ts';
import { START_TRIAL_LABEL, TRIAL_REMINDER_PROMISE } from '#shared/trial-offer.ts';
import { ERROR_TEXT } from '#shared/error-text.ts';
import { PRICES_GBP, TRIAL_DAYS } from '#shared/constants.ts';
import { Button, buttonClasses } from '#web/components/ui/button.tsx';
import { Dialog } from '#web/components/ui/dialog.tsx';
import { Spinner } from '#web/components/ui/spinner.tsx';
import { formatDate, openBillingPortal, useCancelSubscription, useSubscription } from '#web/features/billing/use-subscription.ts';
import { RestorePurchasesButton } from '#web/features/billing/restore-purchases-button.tsx';
import { ApiError } from '#web/lib/api.ts';
import { useHydrated } from '#web/lib/hydration.tsx';
import { platform } from '#web/platform/platform.ts';

/** Statuses in which a payment was attempted and refused. */
const PAYMENT_FAILED_STATUSES: ReadonlySet<string> = new Set(['past_due', 'unpaid']);

function statusLabel(sub: { status: string; cancelAtPeriodEnd: boolean }, subscribed: boolean): string {
  if (!subscribed) return sub.status === 'past_due' ? 'Payment overdue' : 'Ended';
  if (sub.cancelAtPeriodEnd) return 'Cancelling';
  return sub.status === 'trialing' ? 'Free trial' : 'Active';
}

export function SubscriptionCard() {
  const query = useSubscription();
  const cancel = useCancelSubscription();
  const navigate = useNavigate();
  const [confirmOpen, setConfirmOpen] = useState(false);
  // Inside the apps (after hydration: the prepared page is the web's): the store's purchases.
  const purchases = useHydrated() ? platform().purchases : undefined;
  const restore = purchases ? <RestorePurchasesButton purchases={purchases} signedIn className="mt-3" /> : null;

  if (query.isPending) return <Spinner label="Loading your subscription..." />;
  if (query.isError) return <p role="alert">Could not load your subscription: {query.error.message}</p>;
  const { subscription, subscribed } = query.data;

  if (!subscription) {
    return (
      <>
        <h2 className="flex items-center gap-2 text-lg font-semibold text-stone-900 dark:text-stone-50">
          <CreditCard className="size-5" aria-hidden /> Subscription Management
        </h2>
        <p className="mt-3 text-stone-600 dark:text-stone-300">
          You don't have a subscription yet. Start with a {TRIAL_DAYS}-day free trial, then £{PRICES_GBP.monthly} a month or £{PRICES_GBP.yearly} a year.
        </p>
        <Link to="/subscribe" className={buttonClasses({ className: 'mt-6' })}>
          <Sparkles className="size-4" aria-hidden /> {START_TRIAL_LABEL}
        </Link>
        {restore ? <div>{restore}</div> : null}
      </>
    );
  }

  const plan = subscription.plan === 'comped' ? 'Complimentary access' : ((PLAN_DETAILS as Partial<Record<string, { label: string }>>)[subscription.plan]?.label ?? subscription.plan);
  const dateLine = !subscribed
    ? subscription.currentPeriodEnd
      ? `Ended ${formatDate(subscription.currentPeriodEnd)}`
      : ''
    : subscription.cancelAtPeriodEnd
      ? `Access until ${formatDate(subscription.currentPeriodEnd)}`
      : subscription.status === 'trialing'
        ? `Trial ends ${formatDate(subscription.trialEnd ?? subscription.currentPeriodEnd)}. ${TRIAL_REMINDER_PROMISE}`
        : subscription.currentPeriodEnd
          ? `${subscription.provider === 'comped' ? 'Until' : 'Renews'} ${formatDate(subscription.currentPeriodEnd)}`
          : '';

  const manage = async () => {
    try {
      const { url } = await openBillingPortal();
      if (/^https?:/.test(url)) window.location.assign(url);
      else void navigate(url);
    } catch (error) {
      toast.error(error instanceof ApiError ? error.message : BILLING_MESSAGES.genericError);
    }
  };
  const setCancel = async (value: boolean) => {
    try {
      await cancel.mutateAsync(value);
      setConfirmOpen(false);
      toast.success(value ? 'Subscription cancelled' : 'Subscription resumed', {
        description: value ? `You keep access until ${formatDate(subscription.currentPeriodEnd)}.` : 'Your subscription will renew as usual.',
      });
    } catch (error) {
      toast.error(error instanceof ApiError ? error.message : BILLING_MESSAGES.genericError);
    }
  };
  const selfManaged = subscription.provider === 'stripe' || subscription.provider === 'sandbox';
  const paymentProblem = subscription.paymentError ?? (PAYMENT_FAILED_STATUSES.has(subscription.status) ? 'payment-failed' : null);

  return (
    <>
      <h2 className="flex items-center gap-2 text-lg font-semibold text-stone-900 dark:text-stone-50">
        <CreditCard className="size-5" aria-hidden /> Subscription Management
      </h2>
      <div className="mt-5 grid gap-3" data-testid="subscription-details">
        <dl className="grid gap-3">
          <div className="flex flex-wrap justify-between gap-2">
            <dt className="text-stone-600 dark:text-stone-300">Plan</dt>
            <dd className="font-medium text-stone-900 dark:text-stone-50">{plan}</dd>
          </div>
          <div className="flex flex-wrap justify-between gap-2">
            <dt className="text-stone-600 dark:text-stone-300">Status</dt>
            <dd className="font-medium text-stone-900 dark:text-stone-50">{statusLabel(subscription, subscribed)}</dd>
          </div>
        </dl>
        {dateLine ? <p className="text-sm text-stone-600 dark:text-stone-300">{dateLine}</p> : null}
        {subscription.provider === 'app_store' ? <p className="text-sm text-stone-600 dark:text-stone-300">Managed by Apple: change it in Settings › Apple ID › Subscriptions.</p> : null}
        {subscription.provider === 'play_store' ? <p className="text-sm text-stone-600 dark:text-stone-300">Managed by Google Play: change it in the Play Store under Payments & subscriptions.</p> : null}
        {/* The provider could not take the renewal (Stripe: invoice.payment_failed; the card's decline when it says so). */}
        {paymentProblem ? (
          <p role="alert" className="rounded-2xl bg-amber-50 p-3 text-sm text-amber-900 dark:bg-amber-950/40 dark:text-amber-100">
            {ERROR_TEXT[paymentProblem === 'card-declined' ? 'subscription/card-declined' : 'subscription/payment-failed']}
          </p>
        ) : null}
      </div>
      {selfManaged ? (
        <div className="mt-6 flex flex-wrap gap-3">
          <Button variant="secondary" onClick={() => void manage()}>
            {paymentProblem ? 'Update payment details' : 'Manage'}
          </Button>
          {subscribed && !subscription.cancelAtPeriodEnd ? (
            <Button variant="outline" onClick={() => setConfirmOpen(true)}>
              Cancel
            </Button>
          ) : null}
          {subscribed && subscription.cancelAtPeriodEnd ? (
            <Button variant="outline" onClick={() => void setCancel(false)} disabled={cancel.isPending}>
              Resume subscription
            </Button>
          ) : null}
          {!subscribed ? (
            <Link to="/subscribe" className={buttonClasses()}>
              Subscribe again
            </Link>
          ) : null}
        </div>
      ) : null}
      {restore ? <div>{restore}</div> : null}
      <Dialog
        open={confirmOpen}
        onOpenChange={setConfirmOpen}
        title="Cancel your subscription?"
        description={`You'll keep Premium until ${formatDate(subscription.currentPeriodEnd)}, and you won't be charged again. You can resume any time before then.`}
      >
        <div className="mt-6 flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
          <Button variant="outline" onClick={() => setConfirmOpen(false)}>
            Keep subscription
          </Button>
          <Button onClick={() => void setCancel(true)} disabled={cancel.isPending}>
            {cancel.isPending ? 'Cancelling...' : 'Yes, cancel'}
          </Button>
        </div>
      </Dialog>
    </>
  );
}
