/**
 * Words of the way in (issue 38, items 1 and 2): the free meditations at the front door, the
 * listing's "Show only" filters and a member's Today. Beyond the spec, which has none of them. A
 * module of its own, read by lazy chunks only (the catalogue's first load is at its budget).
 */
export const FRONT_DOOR_MESSAGES = {
  tryFree: 'Try a free meditation',
  showOnly: 'Show only',
  free: 'Free',
  practiceForToday: 'Practice for today',
  morningRoutine: 'Morning routine',
  tonightsRoutine: "Tonight's routine",
} as const;
