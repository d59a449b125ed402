/**
 * Signing out's words (MESSAGES.auth has them too), from the specification, verbatim (part of MESSAGES in messages.ts). A module of its own so
 * the app's first load carries only the words it shows (the 120 KB budget); never reword them.
 */
export const SIGN_OUT_MESSAGES = {
  signedOutTitle: 'Signed Out',
  signedOutBody: 'You have been successfully signed out.',
  signOutErrorTitle: 'Error',
  signOutError: 'Failed to sign out. Please try again.',
  unexpected: 'An unexpected error occurred.',
} as const;
