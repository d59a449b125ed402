import { useState, type SubmitEvent } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { toast } from '#web/lib/toast.ts';
import { ACCOUNT_MESSAGES } from '#shared/account-messages.ts';
import { MESSAGES } from '#shared/messages.ts';
import { MIN_PASSWORD_LENGTH } from '#shared/constants.ts';
import { Button, buttonClasses } from '#web/components/ui/button.tsx';
import { Field } from '#web/components/ui/field.tsx';
import { AuthCard } from '#web/features/auth/auth-card.tsx';
import { ApiError } from '#web/lib/api.ts';
import { authClient } from '#web/lib/auth-client.ts';
import { usePageTitle } from '#web/lib/use-page-title.ts';

export function ResetPasswordPage() {
  const [params] = useSearchParams();
  const token = params.get('token');
  const navigate = useNavigate();
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  usePageTitle('Choose a new password');

  if (!token || params.get('error')) {
    return (
      <AuthCard title="This link has expired" subtitle="Reset links work once, for one hour. Ask for a new one from the sign-in screen.">
        <Link to="/sign-in" className={buttonClasses({ className: 'w-full' })}>
          Back to Sign In
        </Link>
      </AuthCard>
    );
  }

  const submit = async (event: SubmitEvent) => {
    event.preventDefault();
    if (pending) return;
    if (password.length < MIN_PASSWORD_LENGTH) { setError(MESSAGES.auth.passwordTooShort); return; }
    if (password !== confirm) { setError(ACCOUNT_MESSAGES.passwordsDiffer); return; }
    setPending(true);
    setError(null);
    try {
      await authClient.resetPassword(token, password);
      toast.success('Password updated', { description: 'You have been signed out on other devices. Sign in with your new password.' });
      void navigate('/sign-in', { replace: true });
    } catch (err) {
      setError(err instanceof ApiError ? err.message : MESSAGES.auth.tryAgain);
    } finally {
      setPending(false);
    }
  };

  return (
    <AuthCard title="Choose a new password" subtitle="Setting a new password signs you out everywhere else.">
      <form onSubmit={(event) => void submit(event)} noValidate className="grid gap-4">
        <Field label="New password" type="password" autoComplete="new-password" value={password} onChange={(e) => setPassword(e.target.value)} hint={MESSAGES.auth.passwordHint} />
        <Field label="Confirm new password" type="password" autoComplete="new-password" value={confirm} onChange={(e) => setConfirm(e.target.value)} error={error ?? undefined} />
        <Button type="submit" size="lg" disabled={pending}>
          {pending ? 'Saving...' : 'Save new password'}
        </Button>
      </form>
    </AuthCard>
  );
}
