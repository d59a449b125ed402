/**
 * Calls to the auth API (better-auth behind our routes, which answer in the spec's words).
 * On the web the session lives in an HttpOnly cookie and the page never sees a token; inside the
 * apps it is a bearer token kept in the device's secure storage (the platform layer).
 */
import { authApi } from '#shared/contracts/auth.routes.ts';
import { safeNextPath, withNext } from '#shared/next-path.ts';
import { call } from '#web/lib/call.ts';
import { platform } from '#web/platform/platform.ts';

export const authClient = {
  signIn: (email: string, password: string) => call(authApi.signInEmail, { body: { email, password } }),
  /** The e-mail's link signs the person in and continues to `next` (their intent, e.g. a trial). */
  signUp: (name: string, email: string, password: string, next?: string | null) => call(authApi.signUpEmail, { body: { name, email, password, callbackURL: withNext('/verify-email', next) } }),
  // Inside the apps the kept bearer token goes too, whatever the server answered.
  signOut: () => call(authApi.signOut, { body: {} }).finally(() => platform().forgetSession()),
  // A path, not an address: the server sends links only into its own site (inside the apps the page's origin is the WebView's).
  requestPasswordReset: (email: string) => call(authApi.requestPasswordReset, { body: { email, redirectTo: '/reset-password' } }),
  resetPassword: (token: string, newPassword: string) => call(authApi.resetPassword, { body: { token, newPassword } }),
  resendVerification: (email: string, next?: string | null) => call(authApi.sendVerificationEmail, { body: { email, callbackURL: withNext('/verify-email', next) } }),
  providers: () => call(authApi.providers),
  /** Starts OAuth: the server answers with the provider's URL, which we follow. */
  social: async (provider: 'apple' | 'google', next?: string | null): Promise<{ url: string }> => {
    const answer = await call(authApi.signInSocial, { body: { provider, callbackURL: safeNextPath(next) ?? '/' } });
    // Without an identity token better-auth always answers with the provider's page.
    if (!answer.redirect) throw new Error('sign-in/social answered without the provider’s page');
    return answer;
  },
};
