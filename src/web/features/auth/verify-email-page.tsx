/**
 * Where the verification e-mail's link lands (better-auth checks the token, then redirects here,
 * with `?error=token_expired` or `?error=invalid_token` when it could not verify). Verified: say so
 * and sign in right here. Not verified: say why and send a new link.
 */
import { useEffect } from 'react';
import { Link, Navigate, useNavigate, useSearchParams } from 'react-router';
import { toast } from '#web/lib/toast.ts';
import { Button, buttonClasses } from '#web/components/ui/button.tsx';
import { Field } from '#web/components/ui/field.tsx';
import { AuthCard } from '#web/features/auth/auth-card.tsx';
import { AuthForm } from '#web/features/auth/auth-form.tsx';
import { useEmailRequest } from '#web/features/auth/use-email-request.ts';
import { useViewer } from '#web/features/auth/use-viewer.ts';
import { safeNextPath } from '#shared/next-path.ts';
import { authClient } from '#web/lib/auth-client.ts';
import { usePageTitle } from '#web/lib/use-page-title.ts';

export const VERIFY_EMAIL_TEXT = {
  verifiedTitle: 'Email verified',
  verifiedSubtitle: 'Thank you, your address is confirmed. Sign in to start your practice.',
  signedInBody: "Thank you, your address is confirmed. You're signed in.",
  expiredTitle: 'This link has expired',
  invalidTitle: 'This link is not valid',
  resendSubtitle: "Verification links work once, for a limited time. Enter your email and we'll send you a new one.",
  resend: 'Send a new link',
  sent: (email: string) => `If ${email} still needs verifying, a new link is on its way. Check your inbox (and the spam folder).`,
} as const;

export function VerifyEmailPage() {
  const viewer = useViewer();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const error = params.get('error');
  // The link signs the person in (better-auth's autoSignInAfterVerification) and continues to what
  // they set out to do, such as starting a trial; without an intent, home.
  const next = safeNextPath(params.get('next'));
  usePageTitle(error ? 'Verify your email' : VERIFY_EMAIL_TEXT.verifiedTitle);

  const arrivedSignedIn = viewer.signedIn && !error;
  useEffect(() => {
    if (arrivedSignedIn) toast.success(VERIFY_EMAIL_TEXT.verifiedTitle, { description: VERIFY_EMAIL_TEXT.signedInBody });
  }, [arrivedSignedIn]);

  if (viewer.signedIn) return <Navigate to={next ?? '/'} replace />;
  if (error) return <ResendVerification expired={error === 'token_expired'} next={next} />;
  return (
    <AuthCard title={VERIFY_EMAIL_TEXT.verifiedTitle} subtitle={VERIFY_EMAIL_TEXT.verifiedSubtitle}>
      <AuthForm variant="screen" hideTabs next={next} onSignedIn={() => void navigate(next ?? '/', { replace: true })} />
    </AuthCard>
  );
}

function ResendVerification({ expired, next }: { expired: boolean; next: string | null }) {
  const { email, setEmail, error: fieldError, pending, sentTo, submit } = useEmailRequest((address) => authClient.resendVerification(address, next));

  return (
    <AuthCard title={expired ? VERIFY_EMAIL_TEXT.expiredTitle : VERIFY_EMAIL_TEXT.invalidTitle} subtitle={sentTo ? undefined : VERIFY_EMAIL_TEXT.resendSubtitle}>
      {sentTo ? (
        <div className="grid gap-4">
          <p role="status" className="text-stone-700 dark:text-stone-200">
            {VERIFY_EMAIL_TEXT.sent(sentTo)}
          </p>
          <Link to="/sign-in" className={buttonClasses({ variant: 'outline', className: 'w-full' })}>
            Back to Sign In
          </Link>
        </div>
      ) : (
        <form onSubmit={(event) => void submit(event)} noValidate className="grid gap-4">
          <Field label="Email" type="email" autoComplete="email" value={email} onChange={(e) => setEmail(e.target.value)} error={fieldError ?? undefined} />
          <Button type="submit" size="lg" disabled={pending}>
            {pending ? 'Sending...' : VERIFY_EMAIL_TEXT.resend}
          </Button>
        </form>
      )}
    </AuthCard>
  );
}
