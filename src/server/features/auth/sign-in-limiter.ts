/**
 * Server-side sign-in limit: 10 failed attempts per 5 minutes, per account and per IP. Only
 * failures count; a success clears the account's counter (spec §4 'Sign-in').
 */
import type { RateLimitStore } from '#server/features/security/rate-limit-store.ts';

export const SIGN_IN_MAX_FAILURES = 10;
export const SIGN_IN_WINDOW_MS = 5 * 60 * 1000;

export type LimitState = { blocked: false } | { blocked: true; retryAfterSeconds: number };

export function createSignInLimiter(store: RateLimitStore, now: () => number = Date.now) {
  const keys = (email: string, ip: string) => [`signin:account:${email.trim().toLowerCase()}`, `signin:ip:${ip}`];
  return {
    async check(email: string, ip: string): Promise<LimitState> {
      const counts = await Promise.all(keys(email, ip).map((key) => store.peek(key)));
      const over = counts.filter((c) => c.count >= SIGN_IN_MAX_FAILURES);
      if (over.length === 0) return { blocked: false };
      const resetAt = Math.max(...over.map((c) => c.resetAt));
      return { blocked: true, retryAfterSeconds: Math.max(1, Math.ceil((resetAt - now()) / 1000)) };
    },
    async recordFailure(email: string, ip: string): Promise<number> {
      const [account, byIp] = await Promise.all(keys(email, ip).map((key) => store.hit(key, SIGN_IN_WINDOW_MS, ip)));
      return Math.max(account!.count, byIp!.count);
    },
    async recordSuccess(email: string, ip: string): Promise<void> {
      await store.reset(keys(email, ip)[0]!);
    },
  };
}

export type SignInLimiter = ReturnType<typeof createSignInLimiter>;
