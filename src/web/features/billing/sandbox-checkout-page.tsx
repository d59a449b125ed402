/** The in-app sandbox checkout (no Stripe keys): clearly labelled, returns exactly like Stripe. */
import { useQuery } from '@tanstack/react-query';
import FlaskConical from 'lucide-react/icons/flask-conical';
import { useState } from 'react';
import { Link, Navigate, useNavigate, useSearchParams } from 'react-router';
import { toast } from '#web/lib/toast.ts';
import { BILLING_MESSAGES } from '#shared/billing.ts';
import { billingApi } from '#shared/contracts/billing.routes.ts';
import { queryKeyOf } from '#shared/contracts/route.ts';
import { TRIAL_DAYS } from '#shared/constants.ts';
import { Button, buttonClasses } from '#web/components/ui/button.tsx';
import { Spinner } from '#web/components/ui/spinner.tsx';
import { AuthCard } from '#web/features/auth/auth-card.tsx';
import { useViewer } from '#web/features/auth/use-viewer.ts';
import { ApiError } from '#web/lib/api.ts';
import { call } from '#web/lib/call.ts';
import { usePageTitle } from '#web/lib/use-page-title.ts';


export function SandboxCheckoutPage() {
  const [params] = useSearchParams();
  const sessionId = params.get('session_id') ?? '';
  const viewer = useViewer();
  const navigate = useNavigate();
  const [pending, setPending] = useState(false);
  const session = useQuery({
    queryKey: queryKeyOf(billingApi.sandboxSession, { params: { id: sessionId } }),
    queryFn: () => call(billingApi.sandboxSession, { params: { id: sessionId } }),
    enabled: viewer.signedIn && Boolean(sessionId),
    retry: false,
  });
  usePageTitle('Sandbox checkout');

  if (viewer.status === 'signed-out') return <Navigate to="/sign-in" replace />;
  if (viewer.status === 'loading' || session.isPending) return <Spinner label="Opening checkout..." />;
  if (session.isError) {
    return (
      <AuthCard title="Checkout unavailable" subtitle={session.error.message}>
        <Link to="/subscribe" className={buttonClasses({ className: 'w-full' })}>
          Back to plans
        </Link>
      </AuthCard>
    );
  }

  const complete = async () => {
    if (pending) return;
    setPending(true);
    try {
      const { redirect } = await call(billingApi.sandboxComplete, { params: { id: sessionId } });
      void navigate(redirect, { replace: true });
    } catch (error) {
      toast.error(error instanceof ApiError ? error.message : BILLING_MESSAGES.genericError);
      setPending(false);
    }
  };

  const s = session.data;
  return (
    <AuthCard title="Sandbox checkout">
      <p className="flex items-start gap-3 rounded-2xl bg-amber-50 p-4 text-sm text-amber-900 ring-1 ring-amber-200 dark:bg-amber-950/50 dark:text-amber-100 dark:ring-amber-900" role="note">
        <FlaskConical className="size-5 shrink-0" aria-hidden />
        This is a sandbox: billing is not configured on this server, so no card is needed and no money moves. It behaves like the real checkout.
      </p>
      <dl className="mt-6 grid gap-3 rounded-2xl bg-stone-50 p-5 dark:bg-stone-950">
        <div className="flex justify-between gap-4">
          <dt className="text-stone-600 dark:text-stone-300">Plan</dt>
          <dd className="font-medium text-stone-900 dark:text-stone-50">{s.label}</dd>
        </div>
        <div className="flex justify-between gap-4">
          <dt className="text-stone-600 dark:text-stone-300">Price</dt>
          <dd className="font-medium text-stone-900 dark:text-stone-50">{s.priceText}</dd>
        </div>
        <div className="flex justify-between gap-4">
          <dt className="text-stone-600 dark:text-stone-300">Due today</dt>
          <dd className="font-medium text-stone-900 dark:text-stone-50">{s.withTrial ? `£0.00 (${TRIAL_DAYS}-day free trial)` : s.priceText.split(' ')[0]}</dd>
        </div>
      </dl>
      <div className="mt-6 grid gap-3">
        <Button size="lg" onClick={() => void complete()} disabled={pending}>
          {pending ? 'Processing...' : 'Complete sandbox payment'}
        </Button>
        <Button variant="outline" onClick={() => void navigate('/subscribe', { replace: true })}>
          Cancel
        </Button>
      </div>
    </AuthCard>
  );
}
