import { Navigate, useNavigate } from 'react-router';
import { AuthCard } from '#web/features/auth/auth-card.tsx';
import { AuthForm } from '#web/features/auth/auth-form.tsx';
import { useViewer } from '#web/features/auth/use-viewer.ts';
import { usePageTitle } from '#web/lib/use-page-title.ts';

/** /sign-up: the sign-in dialog's content on its own screen, opening on Sign Up. */
export function SignUpPage() {
  const viewer = useViewer();
  const navigate = useNavigate();
  usePageTitle('Create your account');
  if (viewer.signedIn) return <Navigate to="/" replace />;
  return (
    <AuthCard title="Welcome to Harbour Mind" subtitle="Create your account to begin. Your 7-day free trial starts when you subscribe.">
      <AuthForm initialMode="signup" onSignedIn={() => void navigate('/', { replace: true })} />
    </AuthCard>
  );
}
