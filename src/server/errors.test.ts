/**
 * Errors through one door (issue 14, item 3): every code has words and a status its family allows,
 * and no AppError contradicts its code's default status.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ERROR_TEXT, type ErrorCode } from '#shared/error-text.ts';
import { STATUS_BY_CODE } from '#server/errors.ts';

/** The statuses each family (the part of the code before '/') may answer with. */
const FAMILY_STATUSES: Partial<Record<string, readonly number[]>> = {
  validation: [400],
  auth: [400, 401, 403, 409, 429],
  subscription: [402, 403],
  billing: [402, 409, 502, 503],
  media: [403],
  upload: [413, 415, 422],
  admin: [409, 503],
  account: [403, 409],
  journal: [403, 409],
  database: [409, 503],
  'rate-limit': [429],
  security: [403, 503],
  server: [503],
  network: [504],
  'not-found': [404],
  default: [500],
};

const CODES = Object.keys(ERROR_TEXT) as ErrorCode[];
const familyOf = (code: string) => code.split('/')[0];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

/** Every `new AppError('code', message, status …)` in the server's source, with the status if it is a literal. */
function appErrorCalls(): { file: string; code: string; status: number | undefined }[] {
  const calls: { file: string; code: string; status: number | undefined }[] = [];
  for (const file of sourceFiles(join(import.meta.dirname))) {
    const text = readFileSync(file, 'utf8');
    for (const match of text.matchAll(/new AppError\(\s*'([^']+)'([^;]*)/g)) {
      // The status is the first three-digit literal argument after the message (messages are strings or identifiers).
      const status = /^,\s*(?:'(?:[^'\\]|\\.)*'|`[^`]*`|[\w.[\]'()]+?)\s*,\s*(\d{3})\b/.exec(match[2])?.[1];
      calls.push({ file, code: match[1], status: status === undefined ? undefined : Number(status) });
    }
  }
  return calls;
}

describe('error catalogue', () => {
  it.each(CODES)('%s has words and a status its family allows', (code) => {
    expect(ERROR_TEXT[code].trim()).not.toBe('');
    const allowed = FAMILY_STATUSES[familyOf(code)];
    expect(allowed, `no family statuses for ${code}`).toBeDefined();
    const status = STATUS_BY_CODE[code];
    if (status !== undefined) expect(allowed).toContain(status);
  });

  it('finds the AppErrors it checks', () => {
    const calls = appErrorCalls();
    expect(calls.length).toBeGreaterThan(30);
    expect(calls.filter((c) => c.status !== undefined).length).toBeGreaterThan(20);
  });

  it('throws only known codes, each with its default status or, for codes without one, a status its family allows', () => {
    const problems = appErrorCalls().flatMap(({ file, code, status }) => {
      if (!(code in ERROR_TEXT)) return [`${file}: unknown code ${code}`];
      if (status === undefined) return [];
      const expected = STATUS_BY_CODE[code as ErrorCode];
      if (expected !== undefined && status !== expected) return [`${file}: ${code} with ${status}, its status is ${expected}`];
      if (!FAMILY_STATUSES[familyOf(code)]?.includes(status)) return [`${file}: ${code} with ${status}, outside its family`];
      return [];
    });
    expect(problems).toEqual([]);
  });

  it('builds no error reply by hand outside errors.ts (health keeps its own { status } format)', () => {
    const handMade = sourceFiles(join(import.meta.dirname))
      .filter((file) => !file.endsWith('errors.ts'))
      .filter((file) => /send\(\{\s*error\s*:/.test(readFileSync(file, 'utf8')));
    expect(handMade).toEqual([]);
  });
});
