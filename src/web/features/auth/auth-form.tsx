/**
 * Sign In / Sign Up, used by the sign-in dialog and the /sign-up screen. Switching tabs clears
 * the fields and the error (each tab's form is its own instance); a second submit while one is in
 * flight is ignored.
 */
import { zodResolver } from '@hookform/resolvers/zod';
import MailCheck from 'lucide-react/icons/mail-check';
import { Tabs } from 'radix-ui';
import { useState, type SubmitEvent } from 'react';
import { useForm } from 'react-hook-form';
import { toast } from '#web/lib/toast.ts';
import { credentialsFormSchema, type Credentials } from '#shared/credentials.ts';
import { MESSAGES } from '#shared/messages.ts';
import { Button } from '#web/components/ui/button.tsx';
import { Field } from '#web/components/ui/field.tsx';
import { clearSignInLimit, recordFailedSignIn, recordServerBlock, secondsBlocked } from '#web/features/auth/sign-in-rate-limit.ts';
import { SocialButtons } from '#web/features/auth/social-buttons.tsx';
import { useRefreshViewer } from '#web/features/auth/use-viewer.ts';
import { ApiError } from '#web/lib/api.ts';
import { authClient } from '#web/lib/auth-client.ts';

const M = MESSAGES.auth;
export type AuthMode = 'signin' | 'signup';

async function resend(address: string, next?: string | null) {
  try {
    await authClient.resendVerification(address, next);
    toast.success('Verification email sent', { description: `We sent a new link to ${address}.` });
  } catch (err) {
    toast.error('Could not send the email', { description: err instanceof ApiError ? err.message : M.tryLater });
  }
}

export function AuthForm({
  initialMode = 'signin',
  onSignedIn,
  variant = 'dialog',
  hideTabs = false,
  next,
}: {
  initialMode?: AuthMode;
  onSignedIn?: () => void;
  variant?: 'dialog' | 'screen';
  hideTabs?: boolean;
  /** Where the person meant to go (e.g. a trial): the verification link continues there, signed in. */
  next?: string | null;
}) {
  const [mode, setMode] = useState<AuthMode>(initialMode);
  const [awaitingVerification, setAwaitingVerification] = useState<string | null>(null);

  const switchMode = (next: string) => {
    setMode(next as AuthMode);
    setAwaitingVerification(null);
  };

  if (awaitingVerification) {
    return (
      <div className="rounded-3xl bg-teal-50 p-6 text-center dark:bg-teal-950/50" role="status">
        <MailCheck className="mx-auto size-10 text-teal-700 dark:text-teal-300" aria-hidden />
        <h3 className="mt-3 text-lg font-semibold text-stone-900 dark:text-stone-50">Check your inbox</h3>
        <p className="mt-2 text-stone-600 dark:text-stone-300">
          We sent a confirmation link to <strong>{awaitingVerification}</strong>. Follow it to confirm your address: it signs you in{next ? ' and takes you on from here' : ''}.
        </p>
        <div className="mt-5 flex flex-wrap justify-center gap-3">
          <Button variant="outline" size="sm" onClick={() => void resend(awaitingVerification, next)}>
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
      {/* The active tab's panel (each tab's form is its own instance, so switching clears it). */}
      <Tabs.Content value={mode} className={hideTabs ? 'focus:outline-none' : 'mt-6 focus:outline-none'}>
        <SocialButtons variant={variant} next={next} onSignedIn={onSignedIn} />
        <CredentialsForm key={mode} mode={mode} next={next} onSignedIn={onSignedIn} onSignedUp={setAwaitingVerification} />
      </Tabs.Content>
    </Tabs.Root>
  );
}

function CredentialsForm({ mode, next, onSignedIn, onSignedUp }: { mode: AuthMode; next?: string | null; onSignedIn?: () => void; onSignedUp: (email: string) => void }) {
  const refreshViewer = useRefreshViewer();
  const [unverified, setUnverified] = useState(false);
  const { register, handleSubmit, getValues, setValue, setError, formState } = useForm<Credentials>({
    resolver: zodResolver(credentialsFormSchema(mode)),
    defaultValues: { name: '', email: '', password: '' },
    // One message at a time, answered on submit (spec), not while typing.
    reValidateMode: 'onSubmit',
  });
  const { errors, isSubmitting } = formState;
  const error = errors.root?.message ?? errors.name?.message ?? errors.email?.message ?? errors.password?.message;
  // One message, in one place (issue 17, item 7): a failure is said in the form, where the person is
  // looking and where a screen reader finds it after any toast has gone, under the spec's toast title.
  const [alertTitle, setAlertTitle] = useState<string | null>(null);
  const fail = (message: string, title: string | null = null) => {
    setAlertTitle(title);
    setError('root', { message });
  };

  const send = async ({ name, email, password }: Credentials) => {
    setUnverified(false);
    if (mode === 'signin') {
      const wait = secondsBlocked();
      if (wait > 0) {
        fail(M.tooManyAttempts(wait), M.tooManyAttemptsTitle);
        return;
      }
    }
    try {
      if (mode === 'signin') {
        await authClient.signIn(email.trim(), password);
        clearSignInLimit();
        toast.success(M.welcomeTitle, { description: M.welcomeBody });
        await refreshViewer();
        onSignedIn?.();
      } else {
        await authClient.signUp(name.trim(), email.trim(), password, next);
        toast.success(M.signUpSuccess);
        onSignedUp(email.trim().toLowerCase());
      }
    } catch (err) {
      const message = err instanceof ApiError ? err.message : mode === 'signin' ? M.tryAgain : M.signUpFailed(M.tryAgain);
      if (mode !== 'signin') {
        fail(message);
        return;
      }
      if (err instanceof ApiError && err.status === 429) {
        const seconds = err.retryAfter ?? 300;
        recordServerBlock(seconds);
        fail(M.tooManyAttempts(seconds), M.tooManyAttemptsTitle);
        return;
      }
      if (err instanceof ApiError && err.status === 401) recordFailedSignIn();
      if (err instanceof ApiError && err.code === 'auth/email-not-verified') setUnverified(true);
      fail(message || M.tryAgain, M.signInFailedTitle);
    }
  };
  const submit = (event: SubmitEvent<HTMLFormElement>) => {
    if (isSubmitting) {
      event.preventDefault();
      return;
    }
    setUnverified(false);
    setAlertTitle(null);
    // What is on screen is what is sent. A field can change without an input event reaching the form
    // library (browser autofill, password managers, and once in a while a fast test driver): the
    // form then validated and sent the previous value, e.g. created an account for the address
    // typed before. Read the fields themselves before checking them.
    for (const field of ['name', 'email', 'password'] as const) {
      const input = event.currentTarget.elements.namedItem(field);
      if (input instanceof HTMLInputElement && input.value !== getValues(field)) setValue(field, input.value);
    }
    void handleSubmit(send, (invalid) => {
      // Signing in with a malformed address is said under the spec's 'Invalid Email' title.
      if (mode === 'signin' && invalid.email?.message) setAlertTitle(M.invalidEmailTitle);
    })(event);
  };

  return (
    <form onSubmit={submit} noValidate className="grid gap-4" aria-label={mode === 'signin' ? 'Sign in' : 'Sign up'}>
      {mode === 'signup' ? <Field label="Full Name" autoComplete="name" maxLength={100} {...register('name')} /> : null}
      <Field label="Email" type="email" autoComplete="email" inputMode="email" maxLength={254} {...register('email')} />
      <Field label="Password" type="password" autoComplete={mode === 'signin' ? 'current-password' : 'new-password'} hint={M.passwordHint} maxLength={128} {...register('password')} />
      {error ? (
        <p role="alert" className="rounded-2xl bg-rose-50 px-4 py-3 text-sm text-rose-800 dark:bg-rose-950/50 dark:text-rose-200">
          {alertTitle ? <strong className="block font-semibold">{alertTitle}</strong> : null}
          {error}
          {unverified ? (
            <button type="button" className="ml-2 font-medium underline underline-offset-4" onClick={() => void resend(getValues('email').trim().toLowerCase(), next)}>
              Resend verification email
            </button>
          ) : null}
        </p>
      ) : null}
      <Button type="submit" size="lg" className="w-full rounded-2xl" disabled={isSubmitting} aria-busy={isSubmitting}>
        {mode === 'signin' ? (isSubmitting ? M.signingIn : 'Sign in') : isSubmitting ? 'Creating account...' : 'Create account'}
      </Button>
    </form>
  );
}
