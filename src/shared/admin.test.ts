import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { csvCell, toCsv } from '#shared/csv.ts';
import { addTag, checkAudioFile, checkStoredType, checkUploadFields, normaliseTags, UPLOAD, UPLOAD_MESSAGES as U } from '#shared/uploads.ts';
import { isAbsoluteHttpUrl, shareLinks, validateWaitlist, WAITLIST_MESSAGES as W } from '#shared/waitlist.ts';

const RUNS = { numRuns: 3000 };

describe('waitlist validation', () => {
  it('gives one spec message per bad field', () => {
    expect(validateWaitlist({ name: 'Ada Lovelace', email: 'ada@example.com' })).toEqual({ valid: true, errors: {} });
    expect(validateWaitlist({ name: '', email: '' }).errors).toEqual({ name: W.name, email: W.email });
    expect(validateWaitlist({ name: 'Ada', email: 'ada@example.com', reason: 'x'.repeat(500) }).errors).toEqual({ reason: W.reason });
    expect(validateWaitlist({ name: 'Ada', email: 'ada@example.com', reason: 'x'.repeat(499) }).valid).toBe(true);
    expect(validateWaitlist({ name: 'Ada', email: 'ada@example.com', reason: '   ' }).valid).toBe(true);
  });

  it('never accepts a name or reason carrying script, whatever surrounds it', () => {
    const attack = fc.constantFrom('<script>alert(1)</script>', 'javascript:alert(1)', '<img src=x onerror=alert(1)>', '<iframe src=//x>', 'onload=steal()');
    fc.assert(
      fc.property(fc.string({ maxLength: 40 }), attack, fc.string({ maxLength: 40 }), (before, bad, after) => {
        // Attributes follow a space or quote inside a tag; the separator keeps 'xonload=' (plain text) out of it.
        const text = `${before} ${bad}${after}`;
        const result = validateWaitlist({ name: text, email: 'a@example.com', reason: text });
        expect(result.errors.name).toBe(W.name);
        expect(result.errors.reason).toBe(W.reason);
      }),
      RUNS,
    );
  });

  it('accepts ordinary international names of 2–100 letters', () => {
    const letter = fc.constantFrom(...'abcdefghijklmnopqrstuvwxyzéèüöñçßøåłžšđ'.split(''));
    fc.assert(
      fc.property(fc.array(letter, { minLength: 2, maxLength: 100 }), (chars) => {
        expect(validateWaitlist({ name: chars.join(''), email: 'a@example.com' }).errors.name).toBeUndefined();
      }),
      RUNS,
    );
  });
});

describe('audio file checks', () => {
  const ok = { name: 'calm.mp3', size: 1000, type: 'audio/mpeg' };

  it('uses the spec messages in the spec order', () => {
    expect(checkAudioFile(ok)).toEqual({ valid: true });
    expect(checkAudioFile({ ...ok, size: UPLOAD.maxBytes })).toEqual({ valid: false, error: U.tooLarge });
    expect(checkAudioFile({ ...ok, size: UPLOAD.maxBytes - 1 }).valid).toBe(true);
    expect(checkAudioFile({ ...ok, type: 'video/mp4' })).toEqual({ valid: false, error: U.notAudio });
    expect(checkAudioFile({ ...ok, name: 'calm.exe.mp3' })).toEqual({ valid: false, error: U.dangerousName });
    expect(checkAudioFile({ ...ok, name: '..\\calm.mp3' })).toEqual({ valid: false, error: U.pathCharacters });
    expect(checkStoredType({ name: 'calm.wav', type: 'audio/wav' })).toEqual({ valid: false, error: U.unsupportedType('audio/wav') });
    expect(checkStoredType({ name: 'calm.flac', type: 'audio/mpeg' })).toEqual({ valid: false, error: U.unsupportedExtension('flac') });
    expect(checkStoredType({ name: 'calm.M4A', type: 'audio/x-m4a' }).valid).toBe(true);
  });

  it('refuses every name with a dangerous extension or a path in it', () => {
    const dangerous = fc.constantFrom(...UPLOAD.dangerous, ...UPLOAD.dangerous.map((d) => d.toUpperCase()));
    const path = fc.constantFrom('../', '..\\', '/', '\\', 'C:', '\0');
    const safe = fc.stringMatching(/^[A-Za-z0-9 _-]{0,20}$/);
    fc.assert(
      fc.property(safe, dangerous, safe, (a, d, b) => {
        expect(checkAudioFile({ ...ok, name: `${a}${d}${b}.mp3` }).valid).toBe(false);
      }),
      RUNS,
    );
    fc.assert(
      fc.property(safe, path, safe, (a, p, b) => {
        const result = checkAudioFile({ ...ok, name: `${p === 'C:' ? '' : a}${p}${b}.mp3` });
        expect(result).toEqual({ valid: false, error: U.pathCharacters });
      }),
      RUNS,
    );
  });
});

describe('upload fields and tags', () => {
  const fields = { title: 'Harbour Light', description: '', categories: ['sleeping'], tags: [] };
  it('checks required fields first, then title and description with their titles', () => {
    expect(checkUploadFields(fields, true)).toEqual({ valid: true });
    expect(checkUploadFields(fields, false)).toMatchObject({ valid: false, error: U.required });
    expect(checkUploadFields({ ...fields, categories: [] }, true)).toMatchObject({ error: U.required });
    expect(checkUploadFields({ ...fields, title: 'x'.repeat(201) }, true)).toMatchObject({ title: U.invalidTitle });
    expect(checkUploadFields({ ...fields, description: 'x'.repeat(2001) }, true)).toMatchObject({ title: U.invalidDescription });
  });

  it('keeps tags trimmed, non-empty and unique whatever is typed', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ maxLength: 50 }), { maxLength: 40 }), (raw) => {
        const tags = normaliseTags(raw);
        expect(tags.every((t) => t === t.trim() && t.length > 0 && t.length <= UPLOAD.tagMax)).toBe(true);
        expect(new Set(tags.map((t) => t.toLowerCase())).size).toBe(tags.length);
        expect(tags.length).toBeLessThanOrEqual(UPLOAD.tagsMax);
      }),
      RUNS,
    );
    expect(addTag(['Breath'], '  breath ')).toEqual(['Breath']);
    expect(addTag(['Breath'], '   ')).toEqual(['Breath']);
  });
});

describe('CSV export', () => {
  it('never lets a cell start a formula, and round-trips through a CSV reader', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 60 }), (value) => {
        const cell = csvCell(value);
        const unquoted = cell.startsWith('"') ? cell.slice(1, -1).replace(/""/g, '"') : cell;
        expect(/^[=+\-@\t\r]/.test(unquoted)).toBe(false);
        // What a reader sees is the value, with an apostrophe only where it would have been a formula.
        expect(unquoted === value || unquoted === `'${value}`).toBe(true);
      }),
      RUNS,
    );
    expect(toCsv(['Name'], [['=1+1'], ['a,b'], ['say "hi"']])).toBe(`Name\r\n'=1+1\r\n"a,b"\r\n"say ""hi"""\r\n`);
  });
});

describe('share URL', () => {
  it('accepts only absolute http(s) URLs and builds the three share links', () => {
    expect(isAbsoluteHttpUrl('https://harbourmind.example/waitlist')).toBe(true);
    for (const bad of ['harbourmind.example', '/waitlist', 'javascript:alert(1)', 'ftp://x.example', '']) expect(isAbsoluteHttpUrl(bad)).toBe(false);
    const links = shareLinks('https://h.example/w');
    expect(links.twitter).toContain(encodeURIComponent('Join the beta - limited spots available!'));
    expect(links.facebook).toContain(encodeURIComponent('https://h.example/w'));
    expect(links.linkedin).toContain('linkedin.com');
  });
});
