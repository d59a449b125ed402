/**
 * Where Sign in with Apple on Android comes back (decision 0071): the server sends the system browser
 * to /apple-sign-in?code=… (or ?error=…), and the App Link opens this page in the app. With the
 * verifier the sign-in started with, the code becomes the app's session; without it (or in a browser,
 * where the app did not open) the page says what to do instead.
 */
import { useEffect, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { NATIVE_APP_ID } from '#shared/app-links.ts';
import { authApi } from '#shared/contracts/auth.routes.ts';
import { MESSAGES } from '#shared/messages.ts';
import { APPLE_IN_BROWSER_MESSAGES, APPLE_SIGN_IN_MESSAGES, type AppleReturnError } from '#shared/native-sign-in.ts';
import { buttonClasses } from '#web/components/ui/button.tsx';
import { AuthCard } from '#web/features/auth/auth-card.tsx';
import { useRefreshViewer, useViewer } from '#web/features/auth/use-viewer.ts';
import { ApiError } from '#web/lib/api.ts';
import { call } from '#web/lib/call.ts';
import { toast } from '#web/lib/toast.ts';
import { usePageTitle } from '#web/lib/use-page-title.ts';
import { takeAppleVerifier } from '#web/platform/apple-in-browser.ts';
import { platform } from '#web/platform/platform.ts';

const M = MESSAGES.auth;
const TITLE = 'Sign in with Apple';

/** What an `error` the server sent back means, in the spec's words where it has them. */
const ERROR_TEXT: Record<AppleReturnError, string> = {
  cancelled: APPLE_SIGN_IN_MESSAGES.cancelled,
  unavailable: M.appleNotAvailable,
  expired: APPLE_IN_BROWSER_MESSAGES.expired,
  failed: `${M.appleFailedTitle}. ${M.tryLater}`,
};
const errorText = (error: string) => (error in ERROR_TEXT ? ERROR_TEXT[error as AppleReturnError] : ERROR_TEXT.failed);

/**
 * One redemption per code: the verifier is taken off the device as it is read, so a second run of the
 * effect (React's development double run, a re-render) must join the first rather than find none.
 */
const redemptions = new Map<string, Promise<void>>();
function redeemOnce(code: string): Promise<void> {
  let pending = redemptions.get(code);
  if (!pending) {
    const verifier = takeAppleVerifier();
    pending = verifier ? call(authApi.appleRedeem, { body: { code, verifier } }).then(() => undefined) : Promise.reject(new Error(APPLE_IN_BROWSER_MESSAGES.expired));
    redemptions.set(code, pending);
  }
  return pending;
}

export function AppleReturnPage() {
  usePageTitle(TITLE);
  const [params] = useSearchParams();
  const code = params.get('code');
  const returned = params.get('error');
  const navigate = useNavigate();
  const refreshViewer = useRefreshViewer();
  const inApp = platform().native;
  const signedIn = useViewer().signedIn;
  const [problem, setProblem] = useState<string | null>(returned !== null ? errorText(returned) : code === null ? APPLE_IN_BROWSER_MESSAGES.expired : null);

  useEffect(() => {
    if (!inApp || !code || returned !== null) return;
    let current = true;
    redeemOnce(code).then(
      async () => {
        toast.success(M.welcomeTitle, { description: M.welcomeBody });
        await refreshViewer();
        if (current) void navigate('/', { replace: true });
      },
      (error: unknown) => {
        if (!(error instanceof ApiError)) console.warn('apple sign-in could not be finished', error);
        if (current) setProblem(error instanceof ApiError && error.status < 500 ? error.message : error instanceof Error && error.message === APPLE_IN_BROWSER_MESSAGES.expired ? error.message : `${M.appleFailedTitle}. ${M.tryLater}`);
      },
    );
    return () => {
      current = false;
    };
  }, [inApp, code, returned, navigate, refreshViewer]);

  if (!inApp) {
    // The App Link opened the browser instead (its verification not in place, or turned off on this phone): on
    // Android, an intent link names the app's package, which Chrome opens whatever the verification says.
    const android = code !== null && /Android/i.test(navigator.userAgent);
    return (
      <AuthCard title={TITLE} subtitle={APPLE_IN_BROWSER_MESSAGES.openInApp}>
        {android ? (
          <a href={`intent://${location.host}${location.pathname}${location.search}#Intent;scheme=https;package=${NATIVE_APP_ID};end`} className={buttonClasses({ className: 'w-full' })}>
            Open Harbour Mind
          </a>
        ) : null}
      </AuthCard>
    );
  }
  if (problem === null) {
    return (
      <AuthCard title={TITLE}>
        <p role="status" className="text-stone-700 dark:text-stone-200">
          {APPLE_IN_BROWSER_MESSAGES.finishing}
        </p>
      </AuthCard>
    );
  }
  return (
    <AuthCard title={TITLE}>
      <div className="grid gap-4">
        <p role="alert" className="text-stone-700 dark:text-stone-200">
          {problem}
        </p>
        {/* Already signed in (the link tapped again after it worked): on to the app, not back to a sign-in it skips. */}
        <Link to={signedIn ? '/' : '/sign-in'} replace className={buttonClasses({ variant: 'outline', className: 'w-full' })}>
          {signedIn ? 'Continue' : 'Back to Sign In'}
        </Link>
      </div>
    </AuthCard>
  );
}
