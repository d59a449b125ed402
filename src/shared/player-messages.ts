/**
 * The player's words, from the specification, verbatim (part of MESSAGES in messages.ts). A module of its own so
 * the app's first load carries only the words it shows (the 120 KB budget); never reword them.
 */
export const PLAYER_MESSAGES = {
  completeTitle: 'Meditation Complete!',
  completeBody: 'Beautiful work – your mindful practice is done.',
  loadTimeout: 'This meditation is taking too long to load. Please check your connection and try again.',
  playbackFailed: 'This meditation could not be played. Please try again.',
  offlinePlaybackFailed: 'Offline playback failed',
  offlinePlaybackFailedBody: 'Streaming it instead.',
  /** The play button's name, and what is announced, while the audio loads (issue 38). */
  loading: 'Loading…',
} as const;
