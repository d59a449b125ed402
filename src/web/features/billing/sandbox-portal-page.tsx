/** 'Manage' in sandbox mode: the in-app stand-in for Stripe's Customer Portal. */
import FlaskConical from 'lucide-react/icons/flask-conical';
import { Link, Navigate } from 'react-router';
import { buttonClasses } from '#web/components/ui/button.tsx';
import { Spinner } from '#web/components/ui/spinner.tsx';
import { AuthCard } from '#web/features/auth/auth-card.tsx';
import { useViewer } from '#web/features/auth/use-viewer.ts';
import { SubscriptionCard } from '#web/features/billing/subscription-card.tsx';
import { usePageTitle } from '#web/lib/use-page-title.ts';

export function SandboxPortalPage() {
  const viewer = useViewer();
  usePageTitle('Manage subscription');
  if (viewer.status === 'loading') return <Spinner label="Loading..." />;
  if (!viewer.signedIn) return <Navigate to="/sign-in" replace />;
  return (
    <AuthCard title="Billing portal (sandbox)">
      <p className="mb-6 flex items-start gap-3 rounded-2xl bg-amber-50 p-4 text-sm text-amber-900 ring-1 ring-amber-200 dark:bg-amber-950/50 dark:text-amber-100 dark:ring-amber-900" role="note">
        <FlaskConical className="size-5 shrink-0" aria-hidden />
        Sandbox mode: this page stands in for the payment provider's customer portal.
      </p>
      <SubscriptionCard />
      <Link to="/account" className={buttonClasses({ variant: 'ghost', className: 'mt-6 w-full' })}>
        Return to your account
      </Link>
    </AuthCard>
  );
}
