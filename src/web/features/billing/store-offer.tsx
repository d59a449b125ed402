/**
 * /subscribe inside the apps (issue 19, item 4): the plans as the store sells them (its titles and
 * prices), each bought through the store. Loaded only inside the apps; the web sells by checkout.
 * After a purchase: the spec's 'Welcome to Premium!' toast and home; a failure says the spec's words.
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import LoaderCircle from 'lucide-react/icons/loader-circle';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { BILLING_MESSAGES, type Plan } from '#shared/billing.ts';
import { PURCHASE_MESSAGES } from '#shared/purchases.ts';
import { Button } from '#web/components/ui/button.tsx';
import { VIEWER_QUERY_KEY } from '#web/features/auth/use-viewer.ts';
import { SUBSCRIPTION_QUERY_KEY } from '#web/features/billing/use-subscription.ts';
import { toast } from '#web/lib/toast.ts';
import type { Platform } from '#web/platform/platform.ts';

type Props = {
  purchases: NonNullable<Platform['purchases']>;
  signedIn: boolean;
  /** Buying needs an account (the purchase is bound to it): a visitor is asked to sign up first. */
  onNeedAccount: () => void;
};

export function StoreOffer({ purchases, signedIn, onNeedAccount }: Props) {
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

  if (products.isPending) {
    return (
      <p role="status" className="mt-6 flex items-center gap-2 text-teal-100">
        <LoaderCircle className="size-5 animate-spin" aria-hidden /> Loading plans…
      </p>
    );
  }
  if (products.isError) {
    return (
      <p role="alert" className="mt-6 rounded-2xl bg-white/10 px-4 py-3 text-sm">
        {products.error.message}
      </p>
    );
  }
  return (
    <div className="mt-6 grid gap-3">
      {products.data.map((product) => (
        <Button key={product.id} variant="secondary" size="lg" className="w-full" onClick={() => void buy(product.plan)} disabled={pending !== null} aria-busy={pending === product.plan}>
          {pending === product.plan ? <LoaderCircle className="size-5 animate-spin" aria-hidden /> : null}
          {product.title}: {product.price}
        </Button>
      ))}
      <p className="text-center text-xs text-teal-100">{purchases.store === 'app_store' ? 'Payment through the App Store.' : 'Payment through Google Play.'}</p>
    </div>
  );
}
