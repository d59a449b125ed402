/**
 * 'Write about it' after a meditation (issue 17, item 5): /journal?about=<title>&mood=<1-10> starts a
 * mindfulness entry that names the meditation, with the mood the one-tap check chose. Both come
 * from the address, so the title is only ever text in a field (trimmed, without control
 * characters, and short) and the mood is used only when it is a whole number on the journal's scale.
 */
import { JOURNAL } from '#shared/journal.ts';
import { sanitizeText } from '#shared/validation.ts';

const ABOUT_PARAM = 'about';
/** A programme day's reflection prompt (decision 0051): the entry opens with it. */
const PROMPT_PARAM = 'prompt';
const PROMPT_MAX = 500;
const MOOD_PARAM = 'mood';
const ABOUT_MAX = 200;

export function journalAboutPath(title: string, mood: number | null = null): string {
  const params = new URLSearchParams({ [ABOUT_PARAM]: title });
  if (mood !== null) params.set(MOOD_PARAM, String(mood));
  return `/journal?${params.toString()}`;
}

/** The journal opened with a programme day's reflection prompt. */
export function journalPromptPath(prompt: string): string {
  return `/journal?${new URLSearchParams({ [PROMPT_PARAM]: prompt }).toString()}`;
}

/** The mood chosen after the meditation, or null (absent, or anything but a whole number on the scale). */
export function journalAboutMood(params: URLSearchParams): number | null {
  const raw = params.get(MOOD_PARAM);
  if (raw === null || !/^\d{1,2}$/.test(raw)) return null;
  const mood = Number(raw);
  return mood >= JOURNAL.scaleMin && mood <= JOURNAL.scaleMax ? mood : null;
}

/** The opening words of the entry's 'Mindful moments', or '' when the address names nothing. */
export function journalAboutText(params: URLSearchParams): string {
  const prompt = sanitizeText(params.get(PROMPT_PARAM), PROMPT_MAX);
  if (prompt) return `${prompt}\n`;
  const title = sanitizeText(params.get(ABOUT_PARAM), ABOUT_MAX);
  return title ? `After “${title}”: ` : '';
}
