/**
 * The journal's addresses that open it with words already in an entry: 'Write about it' after a
 * meditation (issue 17, item 5) and a programme day's reflection prompt (decision 0051). Apart from
 * journal-about.ts, which reads them on the journal page: the session summary the idle prefetch
 * loads needs only the address, not the journal's rules and words (6 KB a phone fetched while the
 * first page settled; issue 39).
 */
export const ABOUT_PARAM = 'about';
export const PROMPT_PARAM = 'prompt';
export const MOOD_PARAM = 'mood';

export function journalAboutPath(title: string, mood: number | null = null): string {
  const params = new URLSearchParams({ [ABOUT_PARAM]: title });
  if (mood !== null) params.set(MOOD_PARAM, String(mood));
  return `/journal?${params.toString()}`;
}

/** The journal opened with a programme day's reflection prompt. */
export function journalPromptPath(prompt: string): string {
  return `/journal?${new URLSearchParams({ [PROMPT_PARAM]: prompt }).toString()}`;
}
