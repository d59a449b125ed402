/** Admin document 'Error mapping': keywords in the spec's order, and the retryable set. */
import { describe, expect, it } from 'vitest';
import { errorCodeFromText, RETRYABLE_CODES } from '#shared/error-mapping.ts';
import { ERROR_TEXT } from '#shared/error-text.ts';

describe('error mapping', () => {
  it.each([
    ['duplicate key value violates unique constraint "waitlist_entries_email_lower_idx" (email)', 'database/duplicate-email'],
    ['duplicate key value violates unique constraint "user_roles_pkey"', 'database/constraint-violation'],
    ['Network request failed', 'network/timeout'],
    ['Gateway Timeout', 'network/timeout'],
    ['Rate limit reached', 'rate-limit/exceeded'],
    ['Too Many Requests', 'rate-limit/exceeded'],
    ['Validation failed for field name', 'validation/invalid-input'],
    ['invalid input syntax for type uuid', 'validation/invalid-input'],
    ['connection refused', 'database/connection-error'],
    ['Internal Server Error', 'default'],
  ] as const)('%s → %s', (text, code) => {
    expect(errorCodeFromText(text)).toBe(code);
  });

  it("retries only network/timeout and rate-limit/exceeded (spec), and the server's own 'busy for a moment'", () => {
    expect([...RETRYABLE_CODES].sort()).toEqual(['network/timeout', 'rate-limit/exceeded', 'server/unavailable']);
    expect(ERROR_TEXT['network/timeout']).toBe('Request timed out. Please check your connection and try again.');
    expect(ERROR_TEXT['rate-limit/exceeded']).toBe('Too many requests. Please wait before trying again.');
  });
});
