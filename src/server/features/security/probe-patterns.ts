/**
 * What a refused input looks like when it is a probe rather than a typo: SQL, script or path
 * traversal. Used only on inputs a validator has already refused (probe-log.ts), to tell the operator
 * which refusals were attacks; it never decides whether a request is served.
 */
import { VALIDATION_MESSAGES, validateContent } from '#shared/validation.ts';

export type InjectionKind = 'sql' | 'script' | 'path';

/** SQL fragments that no name, e-mail, id or search for a meditation holds (sqlmap's and by-hand probes). */
const SQL_LIKE = [
  /['"`)]\s*(or|and|\|\||&&)\s*['"`(\d]/i, // ' OR '1'='1, " AND 1=1, ') OR ('a
  /\b(or|and)\s+\d+\s*[=<>]\s*\d+/i, // AND 1234=1234
  /\bunion\b[\s\S]{0,40}\bselect\b/i,
  /;\s*(drop|delete|insert|update|alter|create|truncate|exec|shutdown)\b/i,
  /\b(sleep|pg_sleep|benchmark|dbms_pipe\.receive_message)\s*\(/i,
  /\bwaitfor\s+delay\b/i,
  /['"`]\s*(--|#|\/\*)/, // a quote closed and the rest commented out
  /\b(information_schema|pg_catalog|sqlite_master|sysobjects|xp_cmdshell)\b/i,
  /\b(extractvalue|updatexml|load_file)\s*\(/i,
  /\bselect\b[\s\S]{0,60}\bfrom\b[\s\S]{0,60}\b(where|limit)\b/i,
];

/** Dot-dot segments (either slash), and the files traversal aims at. */
const PATH_LIKE = [/(^|[\\/])\.\.([\\/]|$)/, /\/etc\/(passwd|shadow|hosts)\b/i, /\b(boot|win)\.ini\b/i, /\bfile:\/\//i];

// eslint-disable-next-line no-control-regex -- control characters are removed before the script check.
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/g;

/** Up to three rounds of percent-decoding (%252e%252e → ..), stopping at a malformed escape. */
export function decodeRepeatedly(value: string): string {
  let current = value;
  for (let i = 0; i < 3; i += 1) {
    let next: string;
    try {
      next = decodeURIComponent(current.replace(/\+/g, ' '));
    } catch {
      // A malformed escape decodes no further: judge what we have.
      return current;
    }
    if (next === current) return current;
    current = next;
  }
  return current;
}

/** The kind of injection `value` looks like, or undefined. Only the first 4 000 characters are read. */
export function injectionKind(value: string): InjectionKind | undefined {
  const text = decodeRepeatedly(value.slice(0, 4000));
  if (PATH_LIKE.some((p) => p.test(text))) return 'path';
  // The spec's own script rule ('Content contains potentially harmful code'), so the two never disagree.
  const asContent = validateContent(text.replace(CONTROL, ' '), Number.MAX_SAFE_INTEGER);
  if (!asContent.valid && asContent.error === VALIDATION_MESSAGES.contentHarmful) return 'script';
  if (SQL_LIKE.some((p) => p.test(text))) return 'sql';
  return undefined;
}

/**
 * A short, inert copy of a payload for the log: at most 120 characters, with markup characters,
 * quotes and anything outside printable ASCII written as \uXXXX, so no reader (the admin's page, a
 * terminal, a CSV) ever receives the payload as it was sent.
 */
export function inertSample(value: string): string {
  const cut = value.length > 120 ? `${value.slice(0, 120)}…` : value;
  return cut.replace(/[^\x20-\x7E]|[<>&"'`\\]/g, (c) => (c === '…' ? c : `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`));
}

/** Fields never read, so a password or token never reaches the log, not even as a sample (as redactDetails). */
const SECRET_FIELD = /password|token|key|secret|card|ssn/i;

/**
 * The first string in a parsed request part (query, params, JSON body) that looks like an injection,
 * with its field path. Secret fields are skipped; at most `maxStrings` strings are read.
 */
export function findInjection(parts: Record<string, unknown>, { maxStrings = 200 }: { maxStrings?: number } = {}): { kind: InjectionKind; field: string; value: string } | undefined {
  const stack: [string, unknown, number][] = Object.entries(parts).map(([name, value]) => [name, value, 0]);
  let seen = 0;
  while (stack.length > 0 && seen < maxStrings) {
    const [field, value, depth] = stack.pop() as [string, unknown, number];
    if (typeof value === 'string') {
      seen += 1;
      const kind = injectionKind(value);
      if (kind) return { kind, field, value };
    } else if (value && typeof value === 'object' && depth < 8) {
      for (const [key, child] of Object.entries(value as Record<string, unknown>)) {
        if (SECRET_FIELD.test(key)) continue;
        // Keys are inputs too (a JSON body's property names).
        seen += 1;
        const keyKind = injectionKind(key);
        if (keyKind) return { kind: keyKind, field: `${field}.${key.slice(0, 40)}`, value: key };
        stack.push([`${field}.${key.slice(0, 40)}`, child, depth + 1]);
      }
    }
  }
  return undefined;
}
