/**
 * Sign In / Sign Up, used by the sign-in dialog and the /sign-up screen. Switching tabs clears
 * the fields and the error; a second submit while one is in flight is ignored.
 */
import { MailCheck } from 'lucide-react';
import { Tabs } from 'radix-ui';
import { useRef, useState, type SubmitEvent } from 'react';
import { toast } from 'sonner';
import { MIN_PASSWORD_LENGTH } from '#shared/constants.ts';
import { MESSAGES } from '#shared/messages.ts';
import { validateEmail, validateName } from '#shared/validation.ts';
import { Button } from '#web/components/ui/button.tsx';
import { Field } from '#web/components/ui/field.tsx';
import { clearSignInLimit, recordFailedSignIn, recordServerBlock, secondsBlocked } from '#web/features/auth/sign-in-rate-limit.ts';
import { SocialButtons } from '#web/features/auth/social-buttons.tsx';
import { useRefreshViewer } from '#web/features/auth/use-viewer.ts';
import { ApiError } from '#web/lib/api.ts';
import { authClient } from '#web/lib/auth-client.ts';

const M = MESSAGES.auth;
export type AuthMode = 'signin' | 'signup';

const storage = () => window.localStorage;

export function AuthForm({
  initialMode = 'signin',
  onSignedIn,
  variant = 'dialog',
  hideTabs = false,
}: {
  initialMode?: AuthMode;
  onSignedIn?: () => void;
  variant?: 'dialog' | 'screen';
  hideTabs?: boolean;
}) {
  const [mode, setMode] = useState<AuthMode>(initialMode);
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const [awaitingVerification, setAwaitingVerification] = useState<string | null>(null);
  const [unverified, setUnverified] = useState(false);
  const inFlight = useRef(false);
  const refreshViewer = useRefreshViewer();

  const switchMode = (next: string) => {
    setMode(next as AuthMode);
    setName('');
    setEmail('');
    setPassword('');
    setError(null);
    setUnverified(false);
    setAwaitingVerification(null);
  };

  const submit = async (event: SubmitEvent) => {
    event.preventDefault();
    if (inFlight.current) return;
    setError(null);
    setUnverified(false);
    if (!email.trim() || !password) { setError(M.fillAllFields); return; }
    const emailCheck = validateEmail(email);
    if (mode === 'signin') {
      if (!emailCheck.valid) {
        toast.error(M.invalidEmailTitle, { description: emailCheck.error });
        setError(emailCheck.error); return;
      }
      const wait = secondsBlocked(storage());
      if (wait > 0) {
        toast.error(M.tooManyAttemptsTitle, { description: M.tooManyAttempts(wait) });
        setError(M.tooManyAttempts(wait)); return;
      }
    } else {
      if (!name.trim()) { setError(M.fullNameRequired); return; }
      const nameCheck = validateName(name);
      if (!nameCheck.valid) { setError(nameCheck.error); return; }
      if (!emailCheck.valid) { setError(emailCheck.error); return; }
      if (password.length < MIN_PASSWORD_LENGTH) { setError(M.passwordTooShort); return; }
    }

    inFlight.current = true;
    setPending(true);
    try {
      if (mode === 'signin') {
        await authClient.signIn(email.trim(), password);
        clearSignInLimit(storage());
        toast.success(M.welcomeTitle, { description: M.welcomeBody });
        await refreshViewer();
        onSignedIn?.();
      } else {
        await authClient.signUp(name.trim(), email.trim(), password);
        toast.success(M.signUpSuccess);
        setAwaitingVerification(email.trim().toLowerCase());
        setPassword('');
      }
    } catch (err) {
      const message = err instanceof ApiError ? err.message : mode === 'signin' ? M.tryAgain : M.signUpFailed(M.tryAgain);
      if (mode === 'signin') {
        if (err instanceof ApiError && err.status === 429) {
          const seconds = err.retryAfter ?? 300;
          recordServerBlock(storage(), seconds);
          toast.error(M.tooManyAttemptsTitle, { description: M.tooManyAttempts(seconds) });
        } else {
          if (err instanceof ApiError && err.status === 401) recordFailedSignIn(storage());
          if (err instanceof ApiError && err.code === 'auth/email-not-verified') setUnverified(true);
          toast.error(M.signInFailedTitle, { description: message || M.tryAgain });
        }
      }
      setError(message);
    } finally {
      inFlight.current = false;
      setPending(false);
    }
  };

  const resend = async (address: string) => {
    try {
      await authClient.resendVerification(address);
      toast.success('Verification email sent', { description: `We sent a new link to ${address}.` });
    } catch (err) {
      toast.error('Could not send the email', { description: err instanceof ApiError ? err.message : M.tryLater });
    }
  };

  if (awaitingVerification) {
    return (
      <div className="rounded-3xl bg-teal-50 p-6 text-center dark:bg-teal-950/50" role="status">
        <MailCheck className="mx-auto size-10 text-teal-700 dark:text-teal-300" aria-hidden />
        <h3 className="mt-3 text-lg font-semibold text-stone-900 dark:text-stone-50">Check your inbox</h3>
        <p className="mt-2 text-stone-600 dark:text-stone-300">
          We sent a confirmation link to <strong>{awaitingVerification}</strong>. Follow it, then sign in.
        </p>
        <div className="mt-5 flex flex-wrap justify-center gap-3">
          <Button variant="outline" size="sm" onClick={() => void resend(awaitingVerification)}>
            Resend email
          </Button>
          <Button size="sm" onClick={() => switchMode('signin')}>
            Go to Sign In
          </Button>
        </div>
      </div>
    );
  }

  return (
    <Tabs.Root value={mode} onValueChange={switchMode}>
      <Tabs.List aria-label="Sign in or sign up" hidden={hideTabs} className="grid grid-cols-2 rounded-full bg-stone-100 p-1 dark:bg-stone-800">
        {(['signin', 'signup'] as const).map((value) => (
          <Tabs.Trigger
            key={value}
            value={value}
            className="h-10 rounded-full text-sm font-medium text-stone-600 data-[state=active]:bg-white data-[state=active]:text-stone-900 data-[state=active]:shadow-sm dark:text-stone-300 dark:data-[state=active]:bg-stone-950 dark:data-[state=active]:text-stone-50"
          >
            {value === 'signin' ? 'Sign In' : 'Sign Up'}
          </Tabs.Trigger>
        ))}
      </Tabs.List>
      <div className={hideTabs ? '' : 'mt-6'}>
        <SocialButtons variant={variant} />
        <div className="my-6 flex items-center gap-3 text-xs uppercase tracking-wider text-stone-400" aria-hidden>
          <span className="h-px flex-1 bg-stone-200 dark:bg-stone-800" /> or <span className="h-px flex-1 bg-stone-200 dark:bg-stone-800" />
        </div>
        <form onSubmit={(event) => void submit(event)} noValidate className="grid gap-4" aria-label={mode === 'signin' ? 'Sign in' : 'Sign up'}>
          {mode === 'signup' ? <Field label="Full Name" name="name" autoComplete="name" value={name} onChange={(e) => setName(e.target.value)} maxLength={100} /> : null}
          <Field label="Email" name="email" type="email" autoComplete="email" inputMode="email" value={email} onChange={(e) => setEmail(e.target.value)} maxLength={254} />
          <Field
            label="Password"
            name="password"
            type="password"
            autoComplete={mode === 'signin' ? 'current-password' : 'new-password'}
            value={password}
            onChange={(e) => setPassword(e.target.value)}
            hint={M.passwordHint}
            maxLength={128}
          />
          {error ? (
            <p role="alert" className="rounded-2xl bg-rose-50 px-4 py-3 text-sm text-rose-800 dark:bg-rose-950/50 dark:text-rose-200">
              {error}
              {unverified ? (
                <button type="button" className="ml-2 font-medium underline underline-offset-4" onClick={() => void resend(email.trim().toLowerCase())}>
                  Resend verification email
                </button>
              ) : null}
            </p>
          ) : null}
          <Button type="submit" size="lg" className="w-full rounded-2xl" disabled={pending} aria-busy={pending}>
            {mode === 'signin' ? (pending ? M.signingIn : 'Sign in') : pending ? 'Creating account...' : 'Create account'}
          </Button>
        </form>
      </div>
    </Tabs.Root>
  );
}
