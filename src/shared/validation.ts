/**
 * The specification's validators and sanitisers, with its exact messages (admin document §5).
 * Pure functions shared by the server (authoritative) and the web forms (instant feedback).
 */
import { EMAIL_MAX, NAME_MAX, NAME_MIN } from '#shared/constants.ts';
import { CONTROL_CHARS_MULTILINE, hasControlCharacters } from '#shared/control-characters.ts';

export { hasControlCharacters };

export type Validation = { valid: true } | { valid: false; error: string };

const OK: Validation = { valid: true };
const fail = (error: string): Validation => ({ valid: false, error });

export const VALIDATION_MESSAGES = {
  emailRequired: 'Email is required',
  emailInvalid: 'Please enter a valid email address',
  emailTooLong: 'Email address is too long',
  emailBadChars: 'Email contains invalid characters',
  nameRequired: 'Name is required',
  nameTooShort: 'Name must be at least 2 characters long',
  nameTooLong: 'Name must be less than 100 characters',
  nameInvalidContent: 'Name contains invalid content',
  nameBadChars: 'Name can only contain letters, spaces, hyphens, and apostrophes',
  contentRequired: 'Content is required',
  contentTooLong: (max: number) => `Content must be less than ${max} characters`,
  contentTooManyTags: 'Content contains too many HTML tags',
  contentHarmful: 'Content contains potentially harmful code',
} as const;

/** Script tags, javascript:/vbscript: URLs, HTML data URLs and inline event handlers (onclick=…). */
const SCRIPT_LIKE = /<\s*\/?\s*script\b|javascript\s*:|vbscript\s*:|data\s*:\s*text\/html|\bon[a-z]+\s*=|<\s*iframe\b|<\s*object\b|<\s*embed\b|expression\s*\(/i;
const EMAIL_SHAPE = /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/;
const EMAIL_FORBIDDEN = /[<>'"&]/;
/**
 * Anything outside printable ASCII. Sign-up's own check (better-auth's, zod's email pattern) takes
 * ASCII addresses only, so this is the rule every door already had at sign-up, now in the shared
 * validator: without it the waitlist stored addresses holding a right-to-left override, zero-width
 * characters or fullwidth and look-alike letters, which the admin's table and CSV showed as someone
 * else's address (issue 33).
 */
const EMAIL_NOT_ASCII = /[^\x20-\x7E]/;
/** Letters of any alphabet (names are international), spaces, hyphens, apostrophes (straight and curly) and dots. */
const NAME_CHARS = /^[\p{L}\p{M} .'’-]+$/u;
const HTML_TAG = /<\/?[a-z][^>]*>/gi;
const CONTROL_CHARS_MULTILINE_ALL = new RegExp(CONTROL_CHARS_MULTILINE.source, 'g');

const MAX_HTML_TAGS = 5;
const DEFAULT_CONTENT_MAX = 5000;


/**
 * The dotted path of the first string in a parsed JSON value (object keys included) that holds a
 * control character, or undefined. For request bodies handed whole to a library (better-auth)
 * that would otherwise pass them to the database; `skip` names keys not to look into (passwords,
 * which are only ever hashed). Walks with its own stack: a body nested 100 000 deep must not
 * overflow the call stack.
 */
export function findControlCharacters(value: unknown, { skip = [] }: { skip?: readonly string[] } = {}): string | undefined {
  const stack: { value: unknown; path: string }[] = [{ value, path: '' }];
  for (let next = stack.pop(); next; next = stack.pop()) {
    const { value: current, path } = next;
    if (typeof current === 'string') {
      if (hasControlCharacters(current)) return path || '(value)';
      continue;
    }
    if (typeof current !== 'object' || current === null) continue;
    const entries = Object.entries(current as Record<string, unknown>);
    // Pushed in reverse so the first offending field (in body order) is the one named.
    for (let i = entries.length - 1; i >= 0; i -= 1) {
      const [key, child] = entries[i];
      const childPath = path ? `${path}.${key}` : key;
      if (hasControlCharacters(key)) return childPath;
      if (!skip.includes(key)) stack.push({ value: child, path: childPath });
    }
  }
  return undefined;
}

/**
 * Whether a parsed JSON value nests objects or arrays deeper than `max`. Re-serialising a body
 * nested 20 000 deep (JSON.stringify) overflows the call stack: refuse such bodies first.
 */
export function nestedDeeperThan(value: unknown, max: number): boolean {
  const stack: { value: unknown; depth: number }[] = [{ value, depth: 0 }];
  for (let next = stack.pop(); next; next = stack.pop()) {
    const { value: current, depth } = next;
    if (typeof current !== 'object' || current === null) continue;
    if (depth >= max) return true;
    for (const child of Object.values(current)) stack.push({ value: child, depth: depth + 1 });
  }
  return false;
}

export function validateEmail(input: string | null | undefined): Validation {
  const email = (input ?? '').trim();
  if (!email) return fail(VALIDATION_MESSAGES.emailRequired);
  if (hasControlCharacters(input ?? '')) return fail(VALIDATION_MESSAGES.emailBadChars);
  if (email.length > EMAIL_MAX) return fail(VALIDATION_MESSAGES.emailTooLong);
  if (EMAIL_FORBIDDEN.test(email) || EMAIL_NOT_ASCII.test(email)) return fail(VALIDATION_MESSAGES.emailBadChars);
  if (!EMAIL_SHAPE.test(email)) return fail(VALIDATION_MESSAGES.emailInvalid);
  return OK;
}

export function validateName(input: string | null | undefined): Validation {
  const name = (input ?? '').trim();
  if (!name) return fail(VALIDATION_MESSAGES.nameRequired);
  if (hasControlCharacters(input ?? '')) return fail(VALIDATION_MESSAGES.nameBadChars);
  if (name.length < NAME_MIN) return fail(VALIDATION_MESSAGES.nameTooShort);
  if (name.length > NAME_MAX) return fail(VALIDATION_MESSAGES.nameTooLong);
  if (SCRIPT_LIKE.test(name) || /[<>]/.test(name)) return fail(VALIDATION_MESSAGES.nameInvalidContent);
  if (!NAME_CHARS.test(name)) return fail(VALIDATION_MESSAGES.nameBadChars);
  return OK;
}

export function validateContent(input: string | null | undefined, maxLength = DEFAULT_CONTENT_MAX): Validation {
  const content = (input ?? '').trim();
  if (!content) return fail(VALIDATION_MESSAGES.contentRequired);
  // A NUL or an escape sequence in text is never a description: refuse it rather than store it.
  if (hasControlCharacters(input ?? '', { multiline: true })) return fail(VALIDATION_MESSAGES.contentHarmful);
  if (content.length > maxLength) return fail(VALIDATION_MESSAGES.contentTooLong(maxLength));
  if (SCRIPT_LIKE.test(content)) return fail(VALIDATION_MESSAGES.contentHarmful);
  if ((content.match(HTML_TAG) ?? []).length > MAX_HTML_TAGS) return fail(VALIDATION_MESSAGES.contentTooManyTags);
  return OK;
}

/** A real tag: `<` then a letter (or `/` and a letter), up to the next `>`; a lone `<` (as in "I <3 tea") is text. */
const REAL_TAG = /<\/?[a-z][^<>]*>/gi;

/**
 * The spec's text sanitiser ("tags stripped, special characters escaped"), kept in intent but not
 * to the letter (docs/decisions/0017-store-text-as-typed.md): real tags and control characters are
 * removed, the text is trimmed and cut to `maxLength`, and everything else is stored as typed.
 * Escaping belongs to output (React text, the CSV writer's formula guard), not storage: escaped at
 * rest, "O'Brien" came back as "O&#x27;Brien", and the old pattern `<[^>]*>?` deleted everything
 * after a lone `<` ("I <3 mornings & tea" was stored as "I").
 */
export function sanitizeText(input: string | null | undefined, maxLength = 1000): string {
  let text = (input ?? '').replace(CONTROL_CHARS_MULTILINE_ALL, '');
  // Until none is left: removing one tag must not join its neighbours into another ("<<b>script>").
  for (let before = ''; before !== text; ) {
    before = text;
    text = text.replace(REAL_TAG, '');
  }
  const stripped = text.trim();
  // Cut by code point, never inside a surrogate pair.
  return Array.from(stripped).slice(0, maxLength).join('').trimEnd();
}

/**
 * The spec's e-mail sanitiser kept only `a-z 0-9 @ . _ -`, which turned `ada+beta@example.com`
 * into `adabeta@example.com`: another mailbox, possibly someone else's. An address is validated
 * (validateEmail) and stored trimmed and lower-cased, otherwise as typed (decision 0017).
 */
export function sanitizeEmail(input: string | null | undefined): string {
  return (input ?? '').trim().toLowerCase().slice(0, EMAIL_MAX);
}
