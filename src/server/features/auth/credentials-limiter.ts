/**
 * The credentials limiter: every limit on the requests that judge a password or send mail to an
 * address, in one place and one store (issue 34 item 4). With the global brake (global-rate-limit.ts)
 * it is one of the server's two request limiters; better-auth's own limiter is off (auth.ts).
 *
 * Failed sign-ins: 10 per 5 minutes, per account and per IP (spec §4 'Sign-in'). Count first, then
 * decide: every attempt takes a place in both counters atomically before the password is judged,
 * so 25 guesses sent at once cannot all be judged while the counters still read 9. An attempt that
 * turns out not to be a failure gives its place back: a success clears the account's counter and
 * returns the IP's place; an attempt that never reached a password check (bad input, unverified
 * e-mail) returns both.
 *
 * Requests per IP, counted whatever their outcome (REQUEST_RULES): a backstop on sign-in should the
 * failed-attempt limit ever be bypassed, and a brake on sign-up (counted before the account-exists
 * answer, so that answer cannot be used to test addresses at will) and on the two mails anyone may
 * have sent to an address (a reset link, a new confirmation link).
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

/** What the per-IP request limits cover. */
export type CredentialsRequest = 'sign-in' | 'sign-up' | 'reset-mail' | 'verification-mail';

/** Sign-up attempts per IP (the spec's default limit for such checks: 10 in 15 minutes). */
export const SIGN_UP_PER_IP = 10;

/**
 * Per-IP request limits. Sign-in counts successes too, so its limit (SIGN_IN_REQUESTS_PER_MINUTE, 30
 * by default) sits well above what a household behind one address needs; it covers Apple and Google
 * sign-in as well (the apps' identity tokens, the web's redirect start).
 */
export function requestRules(signInRequestsPerMinute: number): Record<CredentialsRequest, { perWindow: number; windowMs: number }> {
  return {
    'sign-in': { perWindow: signInRequestsPerMinute, windowMs: 60_000 },
    'sign-up': { perWindow: SIGN_UP_PER_IP, windowMs: 15 * 60_000 },
    'reset-mail': { perWindow: 10, windowMs: 10 * 60_000 },
    'verification-mail': { perWindow: 10, windowMs: 10 * 60_000 },
  };
}

export type RequestVerdict = { allowed: true } | { allowed: false; retryAfterSeconds: number };

export function createCredentialsLimiter(store: RateLimitStore, { signInRequestsPerMinute }: { signInRequestsPerMinute: number }, now: () => number = Date.now) {
  const keys = (email: string, ip: string) => ({ account: `signin:account:${email.trim().toLowerCase()}`, ip: `signin:ip:${ip}` });
  const rules = requestRules(signInRequestsPerMinute);
  const retryAfter = (resetAt: number) => Math.max(1, Math.ceil((resetAt - now()) / 1000));
  return {
    /** Counts one request of this kind from `ip`, and says whether it may go on. */
    async request(kind: CredentialsRequest, ip: string): Promise<RequestVerdict> {
      const rule = rules[kind];
      const { count, resetAt } = await store.hit(`${kind}:ip:${ip}`, rule.windowMs, ip);
      return count > rule.perWindow ? { allowed: false, retryAfterSeconds: retryAfter(resetAt) } : { allowed: true };
    },
    /** Takes a place for one password judgement on the account's and the IP's counters. */
    async begin(email: string, ip: string): Promise<SignInAttempt> {
      const k = keys(email, ip);
      const [account, byIp] = await Promise.all([store.hit(k.account, SIGN_IN_WINDOW_MS, ip), store.hit(k.ip, SIGN_IN_WINDOW_MS, ip)]);
      const over = [account, byIp].filter((c) => c.count > SIGN_IN_MAX_FAILURES);
      if (over.length > 0) {
        return { allowed: false, retryAfterSeconds: retryAfter(Math.max(...over.map((c) => c.resetAt))) };
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

export type CredentialsLimiter = ReturnType<typeof createCredentialsLimiter>;
