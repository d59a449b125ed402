/**
 * /subscribe inside the apps (issue 19, item 4): the plans as the store sells them (its titles and
 * prices), each bought through the store. Loaded only inside the apps; the web sells by checkout.
 * After a purchase: the spec's 'Welcome to Premium!' toast and home; a failure says the spec's words.
 * Whatever the products' state, the offer carries what App Review 3.1.1/3.1.2 looks for (issue 35,
 * item 3): Restore Purchases, the auto-renewal terms, and links to the Terms and the Privacy Policy.
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import LoaderCircle from 'lucide-react/icons/loader-circle';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { autoRenewalTerms, BILLING_MESSAGES, type Plan } from '#shared/billing.ts';
import { PURCHASE_MESSAGES } from '#shared/purchases.ts';
import { Button } from '#web/components/ui/button.tsx';
import { VIEWER_QUERY_KEY } from '#web/features/auth/use-viewer.ts';
import { RestorePurchasesButton } from '#web/features/billing/restore-purchases-button.tsx';
import { SUBSCRIPTION_QUERY_KEY } from '#web/features/billing/use-subscription.ts';
import { toast } from '#web/lib/toast.ts';
import type { Platform } from '#web/platform/platform.ts';

type Props = {
  purchases: NonNullable<Platform['purchases']>;
  signedIn: boolean;
  /** Buying needs an account (the purchase is bound to it): a visitor is asked to sign up first. */
  onNeedAccount: () => void;
  /** Restoring needs the account the purchase belongs to: a visitor is asked to sign in. */
  onNeedSignIn?: () => void;
};

export function StoreOffer({ purchases, signedIn, onNeedAccount, onNeedSignIn }: Props) {
  const client = useQueryClient();
  const navigate = useNavigate();
  const products = useQuery({ queryKey: ['store-products'], queryFn: async () => (await purchases.load()).products(), staleTime: Infinity, retry: false });
  const [pending, setPending] = useState<Plan | null>(null);

  const buy = async (plan: Plan) => {
    if (!signedIn) {
      onNeedAccount();
      return;
    }
    if (pending) return;
    setPending(plan);
    try {
      await (await purchases.load()).purchase(plan);
      toast.success(BILLING_MESSAGES.welcomeTitle, { description: BILLING_MESSAGES.welcomeBody });
      await client.invalidateQueries({ queryKey: SUBSCRIPTION_QUERY_KEY });
      await client.invalidateQueries({ queryKey: VIEWER_QUERY_KEY });
      void navigate('/');
    } catch (error) {
      const message = error instanceof Error ? error.message : PURCHASE_MESSAGES.unavailable;
      // Changing one's mind is not an error.
      if ((error as { cancelled?: boolean }).cancelled) toast.info(message);
      else toast.error(message);
    } finally {
      setPending(null);
    }
  };

  let plans;
  if (products.isPending) {
    plans = (
      <p role="status" className="flex items-center gap-2 text-teal-100">
        <LoaderCircle className="size-5 animate-spin" aria-hidden /> Loading plans…
      </p>
    );
  } else if (products.isError) {
    plans = (
      <p role="alert" className="rounded-2xl bg-white/10 px-4 py-3 text-sm">
        {products.error.message}
      </p>
    );
  } else {
    plans = products.data.map((product) => (
      <Button key={product.id} variant="secondary" size="lg" className="w-full" onClick={() => void buy(product.plan)} disabled={pending !== null} aria-busy={pending === product.plan}>
        {pending === product.plan ? <LoaderCircle className="size-5 animate-spin" aria-hidden /> : null}
        {product.title}: {product.price}
      </Button>
    ));
  }
  return (
    <div className="mt-6 grid gap-3">
      {plans}
      <p className="text-center text-xs text-teal-100">{purchases.store === 'app_store' ? 'Payment through the App Store.' : 'Payment through Google Play.'}</p>
      <RestorePurchasesButton purchases={purchases} signedIn={signedIn} onNeedAccount={onNeedSignIn ?? onNeedAccount} variant="secondary" className="w-full" />
      <StoreTerms store={purchases.store} />
    </div>
  );
}

/** The auto-renewal terms and the legal pages, beside the offer (App Review 3.1.2, Play's subscription policy). */
function StoreTerms({ store }: { store: NonNullable<Platform['purchases']>['store'] }) {
  return (
    <div className="mt-2 grid gap-2 text-xs leading-relaxed text-teal-50" data-testid="auto-renewal-terms">
      {autoRenewalTerms(store).map((sentence) => (
        <p key={sentence}>{sentence}</p>
      ))}
      <p className="flex flex-wrap gap-x-4 gap-y-1">
        <Link to="/terms" className="font-medium underline underline-offset-2 hover:text-white">
          Terms of Service
        </Link>
        <Link to="/privacy" className="font-medium underline underline-offset-2 hover:text-white">
          Privacy Policy
        </Link>
      </p>
    </div>
  );
}
