/**
 * The catalogue's words, from the specification, verbatim (part of MESSAGES in messages.ts). A module of its own so
 * the app's first load carries only the words it shows (the 120 KB budget); never reword them.
 */
export const CATALOGUE_MESSAGES = {
  loading: 'Loading meditations...',
  error: (message: string) => `Error loading meditations: ${message}`,
  empty: 'No meditations found in this category.',
  fetchFailed: (message: string) => `Failed to fetch meditations: ${message}`,
  subscribeToListen: 'Subscribe to listen',
  subscribeDialogBody:
    'This meditation is part of your subscription. Start your journey by subscribing to listen.',
  subscribeToContinue: 'Subscribe to Continue',
  maybeLater: 'Maybe Later',
  /** Beyond the spec: the free samples anyone may play (issue 17, decision 0025). */
  freeSample: 'Free to try',
  notFound: 'Meditation not found',
  /** Beyond the spec (issue 38): a link to a meditation the library does not hold said nothing and showed them all. */
  /** Beyond the spec (issue 38): the "Show only" filters' empty lists. */
  noFree: 'No free meditations in this list.',
  noneDownloaded: 'Nothing in this list is downloaded yet.',
  notFoundBody: 'The link names a meditation that is not in the library. Here are all the meditations instead.',
} as const;
