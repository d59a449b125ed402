/**
 * Where to continue after signing up, verifying or signing in (`?next=`): the intent a person had
 * (start a trial, open a page) survives the detour through the account screens. Only paths of this
 * app's own pages are followed, so a crafted link cannot send anyone to another site.
 */
import { isKnownPageRoute } from '#shared/routes.ts';
import { hasControlCharacters } from '#shared/control-characters.ts';

const PARSE_ORIGIN = 'https://harbour.invalid';
const MAX_NEXT_LENGTH = 512;

/** The path and query to continue to, or null when `raw` is not one of this app's pages. */
export function safeNextPath(raw: string | null | undefined): string | null {
  if (!raw || raw.length > MAX_NEXT_LENGTH) return null;
  // Protocol-relative (//host), backslash tricks and control characters never name a page here.
  if (!raw.startsWith('/') || raw.startsWith('//') || raw.includes('\\') || hasControlCharacters(raw)) return null;
  let url: URL;
  try {
    url = new URL(raw, PARSE_ORIGIN);
  } catch {
    return null;
  }
  if (url.origin !== PARSE_ORIGIN || !isKnownPageRoute(url.pathname)) return null;
  return `${url.pathname}${url.search}`;
}

/** The page that starts a trial of `plan` once the person is signed in (the subscribe screen reads it). */
export const TRIAL_INTENT_PARAM = 'start';
export const trialIntentPath = (plan: string) => `/subscribe?${TRIAL_INTENT_PARAM}=${encodeURIComponent(plan)}`;

/** `path` with `?next=` (or `&next=`) added when there is somewhere to continue to. */
export function withNext(path: string, next: string | null | undefined): string {
  const safe = safeNextPath(next);
  // Home is where everything goes by default: no need to say so.
  if (!safe || safe === '/') return path;
  return `${path}${path.includes('?') ? '&' : '?'}next=${encodeURIComponent(safe)}`;
}
