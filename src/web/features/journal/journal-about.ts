/**
 * 'Write about it' after a meditation (issue 17, item 5): /journal?about=<title> starts a
 * mindfulness entry that names the meditation. The title comes from the address, so it is only
 * ever text in a field: trimmed, without control characters, and short.
 */
import { sanitizeText } from '#shared/validation.ts';

const ABOUT_PARAM = 'about';
const ABOUT_MAX = 200;

export const journalAboutPath = (title: string) => `/journal?${ABOUT_PARAM}=${encodeURIComponent(title)}`;

/** The opening words of the entry's 'Mindful moments', or '' when the address names nothing. */
export function journalAboutText(params: URLSearchParams): string {
  const title = sanitizeText(params.get(ABOUT_PARAM), ABOUT_MAX);
  return title ? `After “${title}”: ` : '';
}
