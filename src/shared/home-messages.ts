/**
 * Home's words, from the specification, verbatim (part of MESSAGES in messages.ts). A module of its own so
 * the app's first load carries only the words it shows (the 120 KB budget); never reword them.
 */
export const HOME_MESSAGES = {
  heroStart: 'Start Meditating',
  heroJournal: 'Open Journal',
  affirmationHeading: "Today's affirmation",
  tilesHeading: 'Discover Paths to Emotional Wellbeing',
} as const;
