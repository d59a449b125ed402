/**
 * The auth routes (contracts: auth.ts): who is asking and which providers exist, served by us; and
 * better-auth's own endpoints the web calls (`servedBy: 'better-auth'`, forwarded under /api/auth/* by
 * auth.routes.ts with the spec's checks in front), whose policies are what better-auth enforces.
 * Not in the table: the providers' OAuth callbacks, verify-email and the reset link (pages, not calls),
 * and the two steps of Apple on Android the system browser opens (/api/native/apple/start, /return).
 */
import type { authSchemas } from '#shared/contracts/auth.ts';
import { defineRoutes } from '#shared/contracts/route.ts';

export const authApi = defineRoutes<typeof authSchemas>()('auth', { defaults: { policy: 'public', cache: 'no-store' } }, {
  /** The signed-in user, role and entitlement, or nulls for a visitor. */
  me: { method: 'GET', path: '/api/me', policy: 'public-with-viewer' },
  /** Which providers this server has configured (the same for everyone: no cache header set). */
  providers: { method: 'GET', path: '/api/auth-providers', cache: 'route' },
  signInEmail: { method: 'POST', path: '/api/auth/sign-in/email', servedBy: 'better-auth' },
  signUpEmail: { method: 'POST', path: '/api/auth/sign-up/email', servedBy: 'better-auth' },
  signOut: { method: 'POST', path: '/api/auth/sign-out', servedBy: 'better-auth' },
  requestPasswordReset: { method: 'POST', path: '/api/auth/request-password-reset', servedBy: 'better-auth' },
  resetPassword: { method: 'POST', path: '/api/auth/reset-password', servedBy: 'better-auth' },
  sendVerificationEmail: { method: 'POST', path: '/api/auth/send-verification-email', servedBy: 'better-auth' },
  /** The web's redirect flow (answered with the provider's page) and the apps' identity tokens (answered with the user). */
  signInSocial: { method: 'POST', path: '/api/auth/sign-in/social', servedBy: 'better-auth' },
  updateUser: { method: 'POST', path: '/api/auth/update-user', policy: 'signed-in', servedBy: 'better-auth' },
  changePassword: { method: 'POST', path: '/api/auth/change-password', policy: 'signed-in', servedBy: 'better-auth' },
  listSessions: { method: 'GET', path: '/api/auth/list-sessions', policy: 'signed-in', servedBy: 'better-auth' },
  /** Null for a visitor. */
  getSession: { method: 'GET', path: '/api/auth/get-session', policy: 'public-with-viewer', servedBy: 'better-auth' },
  revokeOtherSessions: { method: 'POST', path: '/api/auth/revoke-other-sessions', policy: 'signed-in', servedBy: 'better-auth' },
  /** Sign in with Apple on Android: the return link's one-time code and the app's proof key, for a bearer session (decision 0071). */
  appleRedeem: { method: 'POST', path: '/api/native/apple/redeem' },
});
