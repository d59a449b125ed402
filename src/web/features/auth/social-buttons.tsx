/**
 * 'Continue with Apple' / 'Continue with Google', shown only for the providers this server has
 * configured (a button that can only fail is a dead end). A configured provider that fails says so
 * in the spec's words. Inside the apps the platform signs in on the device's own sheet where it can
 * (iOS: Apple and Google; Android: Google) and the server turns the identity token into a session;
 * Apple on Android opens in the system browser and returns by App Link (decision 0071); on the web
 * the provider's page opens (OAuth redirect).
 */
import { useQuery } from '@tanstack/react-query';
import { toast } from '#web/lib/toast.ts';
import { authApi } from '#shared/contracts/auth.routes.ts';
import { queryKeyOf } from '#shared/contracts/route.ts';
import { MESSAGES } from '#shared/messages.ts';
import { Button } from '#web/components/ui/button.tsx';
import { ApiError } from '#web/lib/api.ts';
import { call } from '#web/lib/call.ts';
import { authClient } from '#web/lib/auth-client.ts';
import { useRefreshViewer } from '#web/features/auth/use-viewer.ts';
import { browserSignInProviders, deviceSignInProviders, googleNeedsIosClient, signInInSystemBrowser, signInOnDevice as deviceIdToken } from '#web/platform/device-sign-in.ts';

const M = MESSAGES.auth;

function AppleMark() {
  return (
    <svg viewBox="0 0 24 24" className="size-5" aria-hidden focusable="false">
      <path fill="currentColor" d="M16.37 12.7c-.02-2.2 1.8-3.26 1.88-3.31-1.03-1.5-2.62-1.7-3.18-1.72-1.35-.14-2.64.8-3.33.8-.69 0-1.74-.78-2.87-.76-1.47.02-2.83.86-3.59 2.18-1.54 2.66-.39 6.6 1.1 8.76.73 1.06 1.6 2.24 2.73 2.2 1.1-.04 1.51-.71 2.84-.71 1.32 0 1.7.71 2.86.69 1.18-.02 1.93-1.07 2.65-2.13.84-1.22 1.18-2.41 1.2-2.47-.03-.01-2.3-.88-2.32-3.5zM14.2 6.22c.6-.74 1.01-1.75.9-2.77-.87.04-1.93.58-2.55 1.31-.56.64-1.05 1.68-.92 2.67.97.08 1.96-.49 2.57-1.21z" />
    </svg>
  );
}

function GoogleMark() {
  return (
    <svg viewBox="0 0 24 24" className="size-5" aria-hidden focusable="false">
      <path fill="#4285F4" d="M22.5 12.3c0-.8-.1-1.5-.2-2.2H12v4.2h5.9a5 5 0 0 1-2.2 3.3v2.7h3.5c2.1-1.9 3.3-4.7 3.3-8z" />
      <path fill="#34A853" d="M12 23c3 0 5.5-1 7.3-2.7l-3.5-2.7c-1 .7-2.3 1.1-3.8 1.1-2.9 0-5.4-2-6.3-4.6H2.1v2.8A11 11 0 0 0 12 23z" />
      <path fill="#FBBC05" d="M5.7 14.1a6.6 6.6 0 0 1 0-4.2V7.1H2.1a11 11 0 0 0 0 9.8l3.6-2.8z" />
      <path fill="#EA4335" d="M12 5.4c1.6 0 3.1.6 4.2 1.7l3.2-3.2A11 11 0 0 0 2.1 7.1l3.6 2.8C6.6 7.3 9.1 5.4 12 5.4z" />
    </svg>
  );
}

const PROVIDERS = [
  { id: 'apple', name: 'Apple', Mark: AppleMark },
  { id: 'google', name: 'Google', Mark: GoogleMark },
] as const;

export function SocialButtons({ variant, next, onSignedIn }: { variant: 'dialog' | 'screen'; next?: string | null; onSignedIn?: () => void }) {
  const providers = useQuery({ queryKey: queryKeyOf(authApi.providers), queryFn: () => authClient.providers(), staleTime: Infinity });
  const refreshViewer = useRefreshViewer();

  /** On the device's sheet, then the server: signed in here, as after a password sign-in. */
  const signInOnDevice = async (provider: 'apple' | 'google') => {
    const failedTitle = provider === 'apple' ? M.appleFailedTitle : M.googleFailedTitle;
    try {
      const idToken = await deviceIdToken(provider, { googleClientId: providers.data?.googleClientId, googleIosClientId: providers.data?.googleIosClientId });
      // better-auth's id-token sign-in; inside the apps the API client keeps the answer's bearer token in secure storage.
      await call(authApi.signInSocial, { body: { provider, idToken } });
    } catch (error) {
      // The server's refusal in its words; a failure on the device: Apple's in the spec's words, Google's 'Please try again later.'
      const said = error instanceof ApiError ? error.message : provider === 'apple' && error instanceof Error ? error.message : '';
      if (!(error instanceof ApiError)) console.warn(`${provider} sign-in on the device failed`, error);
      toast.error(failedTitle, { description: said || M.tryLater });
      return;
    }
    toast.success(M.welcomeTitle, { description: M.welcomeBody });
    await refreshViewer();
    onSignedIn?.();
  };

  /** Android's Apple: its page in the system browser; the return link opens the app's /apple-sign-in. */
  const signInInBrowser = async () => {
    try {
      await signInInSystemBrowser();
    } catch (error) {
      console.warn('apple sign-in in the system browser failed to open', error);
      toast.error(M.appleFailedTitle, { description: M.tryLater });
    }
  };

  const start = async (provider: 'apple' | 'google') => {
    if (deviceSignInProviders().includes(provider)) return signInOnDevice(provider);
    if (browserSignInProviders().includes(provider)) return signInInBrowser();
    try {
      const { url } = await authClient.social(provider, next);
      window.location.assign(url);
    } catch (error) {
      // Configured but unreachable (offline, or the server cannot reach the provider): the spec's 'not available' words.
      const down = !(error instanceof ApiError) || error.code === 'network' || error.status >= 500;
      if (down) toast.error(provider === 'apple' ? M.appleNotAvailable : M.googleNotAvailable);
      else toast.error(provider === 'apple' ? M.appleFailedTitle : M.googleFailedTitle, { description: error.message || M.tryLater });
    }
  };

  // Inside the apps only the device's own sign-in is offered (iOS: Apple and Google; Android: Google), and
  // Apple on Android through the system browser: Google refuses its page inside a WebView, and a provider's
  // page inside the WebView would return to a cookie session the app does not use. The web offers all.
  const onDevice = deviceSignInProviders();
  const inBrowser = browserSignInProviders();
  // Google on an iPhone signs in for the iOS client id: without one configured its sheet can only fail.
  const usable = (id: 'apple' | 'google') =>
    (onDevice.length === 0 && inBrowser.length === 0) || inBrowser.includes(id) || (onDevice.includes(id) && !(id === 'google' && googleNeedsIosClient() && !providers.data?.googleIosClientId));
  const shown = PROVIDERS.filter((provider) => providers.data?.[provider.id] && usable(provider.id));
  if (shown.length === 0) return null;
  return (
    <>
      <div className="grid gap-3">
        {shown.map(({ id, name, Mark }) => (
          <Button key={id} variant="outline" size="md" className="w-full rounded-2xl" onClick={() => void start(id)}>
            <Mark /> {variant === 'dialog' ? `Continue with ${name}` : `Sign in with ${name}`}
          </Button>
        ))}
      </div>
      <div className="my-6 flex items-center gap-3 text-xs uppercase tracking-wider text-stone-400" aria-hidden>
        <span className="h-px flex-1 bg-stone-200 dark:bg-stone-800" /> or <span className="h-px flex-1 bg-stone-200 dark:bg-stone-800" />
      </div>
    </>
  );
}
