/**
 * The error catalogue's words the web app may need before, or without, the server's own: what a
 * free-text error maps to (error-mapping.ts), the server's busy answer and the default. Kept apart
 * from the rest of ERROR_TEXT (error-text.ts) so the app's first load carries only these (issue 39,
 * the 120 KB budget); ERROR_TEXT is built from them, so each text is still written once.
 */
import type { ErrorCode } from '#shared/error-codes.ts';

export const FALLBACK_ERROR_TEXT = {
  'network/timeout': 'Request timed out. Please check your connection and try again.',
  'validation/invalid-input': 'Please check your input and try again.',
  'rate-limit/exceeded': 'Too many requests. Please wait before trying again.',
  'database/duplicate-email': 'This email is already registered on our waitlist. Thank you for your interest!',
  'database/constraint-violation': 'The information provided conflicts with existing data. Please check your details.',
  'database/connection-error': 'Unable to connect to our servers. Please try again in a moment.',
  // Load shedding and restarts (issue 13, item 6): a short wait fixes it; nothing the user did was wrong.
  'server/unavailable': 'Harbour Mind is busy for a moment. Please try again in a few seconds.',
  default: 'Something went wrong. Please try again later.',
} as const satisfies Partial<Record<ErrorCode, string>>;

export type FallbackErrorCode = keyof typeof FALLBACK_ERROR_TEXT;
