/** Shows children to signed-in users; otherwise the spec's 'Sign In Required' card. */
import LogIn from 'lucide-react/icons/log-in';
import type { ReactNode } from 'react';
import { Link, useLocation } from 'react-router';
import { MESSAGES } from '#shared/messages.ts';
import { withNext } from '#shared/next-path.ts';
import { buttonClasses } from '#web/components/ui/button.tsx';
import { Spinner } from '#web/components/ui/spinner.tsx';
import { useViewer } from '#web/features/auth/use-viewer.ts';

export function SignInGuard({ children }: { children: ReactNode }) {
  const viewer = useViewer();
  const location = useLocation();
  if (viewer.status === 'loading') return <Spinner label="Loading..." />;
  if (viewer.signedIn) return <>{children}</>;
  return (
    <div className="rounded-3xl bg-white p-8 text-center ring-1 ring-stone-200 dark:bg-stone-900 dark:ring-stone-800">
      <LogIn className="mx-auto size-8 text-teal-700 dark:text-teal-300" aria-hidden />
      <h2 className="mt-3 text-xl font-semibold text-stone-900 dark:text-stone-50">{MESSAGES.auth.signInRequiredTitle}</h2>
      <p className="mt-2 text-stone-600 dark:text-stone-300">{MESSAGES.auth.signInRequiredBody}</p>
      {/* Back here after signing in. */}
      <Link to={withNext('/sign-in', `${location.pathname}${location.search}`)} className={buttonClasses({ className: 'mt-6' })}>
        Sign In
      </Link>
    </div>
  );
}
