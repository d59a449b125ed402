/**
 * Calls to the auth API (better-auth behind our routes, which answer in the spec's words).
 * On the web the session lives in an HttpOnly cookie and the page never sees a token; inside the
 * apps it is a bearer token kept in the device's secure storage (the platform layer).
 */
import type { AuthProviders } from '#shared/contracts/auth.ts';
import { safeNextPath, withNext } from '#shared/next-path.ts';
import { api } from '#web/lib/api.ts';
import { platform } from '#web/platform/platform.ts';

export const authClient = {
  signIn: (email: string, password: string) => api<{ user: { id: string } }>('/api/auth/sign-in/email', { method: 'POST', body: { email, password } }),
  /** The e-mail's link signs the person in and continues to `next` (their intent, e.g. a trial). */
  signUp: (name: string, email: string, password: string, next?: string | null) =>
    api('/api/auth/sign-up/email', { method: 'POST', body: { name, email, password, callbackURL: withNext('/verify-email', next) } }),
  // Inside the apps the kept bearer token goes too, whatever the server answered.
  signOut: () => api('/api/auth/sign-out', { method: 'POST', body: {} }).finally(() => platform().forgetSession()),
  // A path, not an address: the server sends links only into its own site (inside the apps the page's origin is the WebView's).
  requestPasswordReset: (email: string) => api('/api/auth/request-password-reset', { method: 'POST', body: { email, redirectTo: '/reset-password' } }),
  resetPassword: (token: string, newPassword: string) => api('/api/auth/reset-password', { method: 'POST', body: { token, newPassword } }),
  resendVerification: (email: string, next?: string | null) =>
    api('/api/auth/send-verification-email', { method: 'POST', body: { email, callbackURL: withNext('/verify-email', next) } }),
  providers: () => api<AuthProviders>('/api/auth-providers'),
  /** Starts OAuth: the server answers with the provider's URL, which we follow. */
  social: (provider: 'apple' | 'google', next?: string | null) =>
    api<{ url: string }>('/api/auth/sign-in/social', { method: 'POST', body: { provider, callbackURL: safeNextPath(next) ?? '/' } }),
};
