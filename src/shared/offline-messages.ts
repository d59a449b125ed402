/**
 * Words for what works without a connection (issue 38, item 5). Beyond the spec, which only says
 * that premium listeners may download meditations for offline listening and that favourites show
 * an 'Offline' or 'Online' badge. Only what every page may show (the banner, a card's reason): the
 * first load carries this module, and the download control's words are in download-messages.ts.
 */
export const OFFLINE_MESSAGES = {
  banner: "You're offline. Downloaded meditations still play; the others need a connection.",
  /** On a card that cannot play now: the reason, in sight and in the card's description. */
  needsConnection: 'Needs a connection',
} as const;
