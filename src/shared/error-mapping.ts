/**
 * The spec's error mapping (admin document 'Error mapping'): a free-text error becomes one of the
 * catalogue's codes by keywords, and only some codes are worth a second try. The web app's API
 * layer (src/web/lib/api.ts) uses both: an answer without the server's code (a proxy's error page,
 * a dropped connection) still shows the catalogue's words, and queries retry only what may succeed.
 */
import type { ErrorCode } from '#shared/error-codes.ts';
import type { FallbackErrorCode } from '#shared/error-text-fallback.ts';

/** In the spec's order: the first rule that matches decides. */
const KEYWORD_RULES: readonly [(text: string) => boolean, FallbackErrorCode][] = [
  [(t) => /duplicate key/.test(t) && /email/.test(t), 'database/duplicate-email'],
  [(t) => /unique constraint/.test(t), 'database/constraint-violation'],
  [(t) => /network|timeout|timed out/.test(t), 'network/timeout'],
  [(t) => /rate limit|too many/.test(t), 'rate-limit/exceeded'],
  [(t) => /validation|invalid/.test(t), 'validation/invalid-input'],
  [(t) => /connection/.test(t), 'database/connection-error'],
];

/** The catalogue code a free-text error message stands for, or 'default'. */
export function errorCodeFromText(text: string): FallbackErrorCode {
  const lower = text.toLowerCase();
  return KEYWORD_RULES.find(([matches]) => matches(lower))?.[1] ?? 'default';
}

/**
 * Spec: 'Only network/timeout and rate-limit/exceeded are retryable.' Ours adds 'server/unavailable'
 * (load shedding and restarts: the server itself says to try again in a few seconds).
 */
export const RETRYABLE_CODES: ReadonlySet<string> = new Set<ErrorCode>(['network/timeout', 'rate-limit/exceeded', 'server/unavailable']);
