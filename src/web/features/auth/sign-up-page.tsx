import { Navigate, useSearchParams } from 'react-router';
import { safeNextPath } from '#shared/next-path.ts';
import { SubscribePage } from '#web/features/billing/subscribe-page.tsx';
import { useViewer } from '#web/features/auth/use-viewer.ts';

/**
 * /sign-up: the subscribe screen with the account dialog open on Sign Up (spec: '/sign-up and
 * /subscribe: the same screen'). Someone already signed in goes on (to ?next= or home), as after signing in.
 */
export function SignUpPage() {
  const viewer = useViewer();
  const [params] = useSearchParams();
  if (viewer.signedIn) return <Navigate to={safeNextPath(params.get('next')) ?? '/'} replace />;
  return <SubscribePage openOn="signup" />;
}
