import { useEffect, useState } from 'react';
import { Link, Navigate, useNavigate, useSearchParams } from 'react-router';
import { toast } from '#web/lib/toast.ts';
import { Button } from '#web/components/ui/button.tsx';
import { Dialog } from '#web/components/ui/dialog.tsx';
import { Field } from '#web/components/ui/field.tsx';
import { AuthCard } from '#web/features/auth/auth-card.tsx';
import { AuthForm } from '#web/features/auth/auth-form.tsx';
import { useEmailRequest } from '#web/features/auth/use-email-request.ts';
import { useViewer } from '#web/features/auth/use-viewer.ts';
import { safeNextPath, withNext } from '#shared/next-path.ts';
import { authClient } from '#web/lib/auth-client.ts';
import { usePageTitle } from '#web/lib/use-page-title.ts';

export function SignInPage() {
  const viewer = useViewer();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const [forgotOpen, setForgotOpen] = useState(false);
  // Where the person was going before being asked to sign in (a guarded page, a trial).
  const next = safeNextPath(params.get('next'));

  usePageTitle('Sign in');
  useEffect(() => {
    if (params.get('verified') === '1' && !params.get('error')) {
      toast.success('Email verified', { description: 'Thank you. You can sign in now.' });
    } else if (params.get('error')) {
      toast.error('This link has expired', { description: 'Sign in to get a new verification email.' });
    }
  }, [params]);

  if (viewer.signedIn) return <Navigate to={next ?? '/'} replace />;

  return (
    <AuthCard title="Welcome back" subtitle="Sign in to continue your practice.">
      <AuthForm variant="screen" hideTabs next={next} onSignedIn={() => void navigate(next ?? '/', { replace: true })} />
      <div className="mt-6 flex flex-wrap items-center justify-between gap-3 text-sm">
        <button type="button" onClick={() => setForgotOpen(true)} className="font-medium text-teal-700 underline-offset-4 hover:underline dark:text-teal-300">
          Forgot Password
        </button>
        <p className="text-stone-600 dark:text-stone-300">
          New here?{' '}
          <Link to={withNext('/sign-up', next)} className="font-medium text-teal-700 underline-offset-4 hover:underline dark:text-teal-300">
            Create an account
          </Link>
        </p>
      </div>
      <ForgotPasswordDialog open={forgotOpen} onOpenChange={setForgotOpen} />
    </AuthCard>
  );
}

function ForgotPasswordDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const { email, setEmail, error, pending, sentTo, submit, reset } = useEmailRequest((address) => authClient.requestPasswordReset(address));

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        onOpenChange(next);
        if (!next) reset();
      }}
      title="Reset your password"
      description={sentTo ? `If an account exists for ${sentTo}, a reset link is on its way. It works for one hour.` : "Enter your email and we'll send you a link to choose a new password."}
    >
      {sentTo ? (
        <Button
          className="mt-6 w-full"
          onClick={() => {
            reset();
            onOpenChange(false);
          }}
        >
          Done
        </Button>
      ) : (
        <form onSubmit={(event) => void submit(event)} noValidate className="mt-6 grid gap-4">
          <Field label="Email" type="email" autoComplete="email" value={email} onChange={(e) => setEmail(e.target.value)} error={error ?? undefined} />
          <Button type="submit" disabled={pending}>
            {pending ? 'Sending...' : 'Send reset link'}
          </Button>
        </form>
      )}
    </Dialog>
  );
}
