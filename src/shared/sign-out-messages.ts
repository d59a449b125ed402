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

/**
 * Signing out with journal changes this device has not sent (issue 36, item 1): signing out wipes the
 * journal here first, so they would be lost. Our words; the spec has none for this.
 */
export const SIGN_OUT_UNSYNCED = {
  title: 'Sign out and lose unsynced journal changes?',
  body: (count: number) =>
    `${count} ${count === 1 ? 'journal change has' : 'journal changes have'} not reached Harbour Mind yet. Signing out deletes your journal from this device, so ${count === 1 ? 'it' : 'they'} would be lost. Cancel, go online and let your journal sync first to keep ${count === 1 ? 'it' : 'them'}.`,
  confirm: 'Sign out anyway',
} as const;
