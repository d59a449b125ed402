/**
 * Web checkout return (spec): with ?session_id in the URL, show 'Verifying subscription...' and
 * poll every 2 s until subscribed; then confirm, toast and go on to the welcome screen. Give up after 30 s.
 */
import { useQueryClient } from '@tanstack/react-query';
import CheckCircle2 from 'lucide-react/icons/check-circle-2';
import LoaderCircle from 'lucide-react/icons/loader-circle';
import TriangleAlert from 'lucide-react/icons/triangle-alert';
import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { toast } from '#web/lib/toast.ts';
import { BILLING_MESSAGES, CHECKOUT_POLL_INTERVAL_MS, CHECKOUT_POLL_TIMEOUT_MS } from '#shared/billing.ts';
import { billingApi } from '#shared/contracts/billing.routes.ts';
import { VIEWER_QUERY_KEY } from '#web/features/auth/use-viewer.ts';
import { SUBSCRIPTION_QUERY_KEY } from '#web/features/billing/use-subscription.ts';
import { call } from '#web/lib/call.ts';

type Phase = 'verifying' | 'verified' | 'timeout';

export function CheckoutReturn() {
  const [phase, setPhase] = useState<Phase>('verifying');
  const navigate = useNavigate();
  const client = useQueryClient();

  useEffect(() => {
    let stopped = false;
    let timer: ReturnType<typeof setTimeout>;
    const started = Date.now();
    const poll = async () => {
      try {
        const result = await call(billingApi.subscription);
        if (stopped) return;
        if (result.subscribed) {
          setPhase('verified');
          await client.invalidateQueries({ queryKey: VIEWER_QUERY_KEY });
          await client.invalidateQueries({ queryKey: SUBSCRIPTION_QUERY_KEY });
          toast.success(BILLING_MESSAGES.welcomeTitle, { description: BILLING_MESSAGES.welcomeBody });
          // The success callback: a new subscriber's first screen, not the marketing home.
          timer = setTimeout(() => void navigate('/welcome', { replace: true }), 1200);
          return;
        }
      } catch {
        // A failed poll is retried until the deadline.
      }
      if (Date.now() - started + CHECKOUT_POLL_INTERVAL_MS > CHECKOUT_POLL_TIMEOUT_MS) {
        setPhase('timeout');
        return;
      }
      timer = setTimeout(() => void poll(), CHECKOUT_POLL_INTERVAL_MS);
    };
    void poll();
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [client, navigate]);

  const content = {
    verifying: { icon: <LoaderCircle className="size-6 animate-spin" aria-hidden />, text: BILLING_MESSAGES.verifying, tone: 'bg-teal-50 text-teal-900 dark:bg-teal-950/60 dark:text-teal-100' },
    verified: { icon: <CheckCircle2 className="size-6" aria-hidden />, text: BILLING_MESSAGES.verified, tone: 'bg-emerald-50 text-emerald-900 dark:bg-emerald-950/60 dark:text-emerald-100' },
    timeout: { icon: <TriangleAlert className="size-6" aria-hidden />, text: BILLING_MESSAGES.verifyTimeout, tone: 'bg-amber-50 text-amber-900 dark:bg-amber-950/60 dark:text-amber-100' },
  }[phase];

  return (
    <div role="status" aria-live="polite" className={`mb-8 flex items-start gap-3 rounded-3xl p-5 ${content.tone}`}>
      {content.icon}
      <p className="font-medium">{content.text}</p>
    </div>
  );
}
