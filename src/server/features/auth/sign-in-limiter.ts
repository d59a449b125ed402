/**
 * Server-side sign-in limit: 10 failed attempts per 5 minutes, per account and per IP (spec §4
 * 'Sign-in'). Count first, then decide: every attempt takes a place in both counters atomically
 * before the password is judged, so 25 guesses sent at once cannot all be judged while the
 * counters still read 9. An attempt that turns out not to be a failure gives its place back: a
 * success clears the account's counter and returns the IP's place; an attempt that never reached
 * a password check (bad input, unverified e-mail) returns both.
 */
import type { RateLimitStore } from '#server/features/security/rate-limit-store.ts';

export const SIGN_IN_MAX_FAILURES = 10;
export const SIGN_IN_WINDOW_MS = 5 * 60 * 1000;

export type SignInAttempt =
  | { allowed: false; retryAfterSeconds: number }
  | {
      allowed: true;
      /** The password was wrong (or the account unknown): the places stay taken. Returns the larger count. */
      failed(): Promise<number>;
      /** Signed in: the account starts afresh and the IP's place is returned. */
      succeeded(): Promise<void>;
      /** Nothing was judged: both places are returned. */
      notCounted(): Promise<void>;
    };

export function createSignInLimiter(store: RateLimitStore, now: () => number = Date.now) {
  const keys = (email: string, ip: string) => ({ account: `signin:account:${email.trim().toLowerCase()}`, ip: `signin:ip:${ip}` });
  return {
    async begin(email: string, ip: string): Promise<SignInAttempt> {
      const k = keys(email, ip);
      const [account, byIp] = await Promise.all([store.hit(k.account, SIGN_IN_WINDOW_MS, ip), store.hit(k.ip, SIGN_IN_WINDOW_MS, ip)]);
      const over = [account, byIp].filter((c) => c.count > SIGN_IN_MAX_FAILURES);
      if (over.length > 0) {
        const resetAt = Math.max(...over.map((c) => c.resetAt));
        return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((resetAt - now()) / 1000)) };
      }
      return {
        allowed: true,
        failed: () => Promise.resolve(Math.max(account.count, byIp.count)),
        succeeded: async () => {
          await Promise.all([store.reset(k.account), store.release(k.ip)]);
        },
        notCounted: async () => {
          await Promise.all([store.release(k.account), store.release(k.ip)]);
        },
      };
    },
  };
}

export type SignInLimiter = ReturnType<typeof createSignInLimiter>;
