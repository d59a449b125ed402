/**
 * The error-code → text catalogue (admin document §8 'Shared error-message mapping'), verbatim.
 * Server and web import it; never reword it. The words the web may need at first load live in
 * error-text-fallback.ts and are part of this table.
 */
import type { ErrorCode } from '#shared/error-codes.ts';
import { FALLBACK_ERROR_TEXT } from '#shared/error-text-fallback.ts';

export type { ErrorCode } from '#shared/error-codes.ts';

export const ERROR_TEXT: Record<ErrorCode, string> = {
  ...FALLBACK_ERROR_TEXT,
  'auth/user-not-found': 'Invalid email or password.',
  'auth/wrong-password': 'Invalid email or password.',
  'auth/too-many-requests': 'Too many failed attempts. Please try again later.',
  'auth/email-already-in-use': 'An account with this email already exists.',
  'auth/weak-password': 'Password must be at least 6 characters long.',
  'auth/invalid-email': 'Please enter a valid email address.',
  'subscription/payment-failed': 'Payment could not be processed. Please check your payment details.',
  'subscription/card-declined': 'Your card was declined. Please try a different payment method.',
  'not-found': 'Not found.',
  'auth/unauthenticated': 'User not authenticated',
  'auth/forbidden': 'Access denied. Admin privileges required.',
  'auth/email-not-verified': 'Please verify your email address before signing in',
  'auth/invalid-name': 'Please enter a full name',
  'auth/failed': 'Please try again.',
  'auth/invalid-token': 'This link has expired or was already used. Please request a new one.',
  'subscription/required': 'This meditation is part of your subscription. Start your journey by subscribing to listen.',
  'billing/checkout-failed': 'Failed to create checkout session. Please try again.',
  'billing/unavailable': 'Subscriptions are not available right now. Please try again later.',
  'billing/already-subscribed': 'You already have an active subscription.',
  'billing/managed-elsewhere': 'This subscription is managed by Apple: cancel it in Settings › Apple ID › Subscriptions.',
  'media/expired': 'This link has expired.',
  'media/forbidden': 'Forbidden',
  'upload/too-large': 'File size must be less than 50MB',
  'upload/unsupported-type': 'The file is not the audio it claims to be. Supported types are MP3 and M4A.',
  'upload/unreadable-audio': 'The audio file could not be read. Please check it plays, then try again.',
  'admin/setup-done': 'An administrator already exists. Ask them to assign roles in the User Roles tab.',
  'security/cross-site-request': 'This request did not come from Harbour Mind, so nothing was changed. Please try again from the app.',
  // Admin document 'Toasts': 'Database Error' and 'Security Check Failed' (a check that could not run, not a refusal).
  'admin/check-failed': 'Unable to verify admin status',
  'security/check-failed': 'Unable to verify rate limits. Please try again.',
  // Deleting an account (issue 18): proof it is really the person, and never the last admin.
  'account/reauth-required': 'For your safety, please sign in again, then delete your account within 10 minutes.',
  'account/last-admin': 'You are the only admin. Give another account the admin role before deleting yours.',
  // The route answers with journal.ts's recordsFull or bytesFull, which say which cap was reached.
  'journal/full': 'Your journal is full: new entries are kept on this device but not synced.',
  // A write sealed under a data key that was replaced (issue 36, item 3; decision 0061): the device must unlock again.
  'journal/key-replaced': 'Your journal\'s key was replaced on another device. Unlock your journal again to keep writing.',
};
