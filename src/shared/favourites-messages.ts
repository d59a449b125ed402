/**
 * Favourites' words, from the specification, verbatim (part of MESSAGES in messages.ts). A module of its own so
 * the app's first load carries only the words it shows (the 120 KB budget); never reword them.
 */
export const FAVOURITES_MESSAGES = {
  authRequiredTitle: 'Authentication required',
  authRequiredBody: 'Please sign in to save meditations',
  /** Beyond the spec: the way out of that message (issue 17). */
  createAccount: 'Create a free account',
  signInToAccess: 'Sign in to access your favourite meditations',
  added: (title: string) => `Saved “${title}” to your favourites`,
  removedTitle: 'Meditation removed',
  removed: (title: string) => `“${title}” was removed from your favourites`,
  removeFailedTitle: 'Failed to remove',
  removeFailedBody: 'Could not remove the meditation',
  saveFailedTitle: 'Save failed',
  saveFailedBody: 'Missing meditation information',
  removeConfirmTitle: 'Remove Meditation?',
  removeConfirmBody: (title: string) => `“${title}” will be removed from your favourites, and any offline copy from this device.`,
  empty: 'No saved meditations yet',
  emptyBody: 'Tap the heart on any meditation to keep it here, ready for the moments you need it.',
  offline: 'Offline',
  online: 'Online',
  unknownDuration: 'Unknown',
} as const;
