import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  findControlCharacters,
  hasControlCharacters,
  nestedDeeperThan,
  sanitizeEmail,
  sanitizeText,
  validateContent,
  validateEmail,
  validateName,
  VALIDATION_MESSAGES as M,
} from '#shared/validation.ts';

const errorOf = (v: { valid: boolean; error?: string }) => (v.valid ? undefined : v.error);

describe('validateEmail', () => {
  it('gives the spec message for each failure', () => {
    expect(errorOf(validateEmail(''))).toBe(M.emailRequired);
    expect(errorOf(validateEmail('   '))).toBe(M.emailRequired);
    expect(errorOf(validateEmail('no-at-sign'))).toBe(M.emailInvalid);
    expect(errorOf(validateEmail('a@b'))).toBe(M.emailInvalid);
    expect(errorOf(validateEmail(`${'a'.repeat(250)}@b.co`))).toBe(M.emailTooLong);
    expect(errorOf(validateEmail('a<b@c.com'))).toBe(M.emailBadChars);
    expect(errorOf(validateEmail('o"brien@c.com'))).toBe(M.emailBadChars);
    expect(validateEmail('Sam.Jones+calm@example.co.uk').valid).toBe(true);
  });

  it('never accepts an address with a forbidden character, whatever else it holds', () => {
    fc.assert(
      fc.property(fc.string(), fc.constantFrom('<', '>', "'", '"', '&'), fc.string(), (a, bad, b) => {
        expect(validateEmail(`${a}${bad}${b}@example.com`).valid).toBe(false);
      }),
      { numRuns: 2000 },
    );
  });

  it('refuses characters outside printable ASCII, as sign-up does (bidi overrides, zero-width, fullwidth, look-alikes)', () => {
    for (const c of ['\u202E', '\u2066', '\u200B', '\u200D', '\uFEFF', '\u00AD', '\uFF41', '\u0430', '\u00E9']) {
      expect(errorOf(validateEmail(`ad${c}a@example.com`)), `U+${c.charCodeAt(0).toString(16)}`).toBe(M.emailBadChars);
      expect(errorOf(validateEmail(`ada@ex${c}ample.com`)), `U+${c.charCodeAt(0).toString(16)}`).toBe(M.emailBadChars);
    }
  });

  it('accepts well-formed addresses', () => {
    fc.assert(
      fc.property(fc.emailAddress(), (email) => {
        fc.pre(email.length <= 254 && !/[<>'"&]/.test(email));
        // fast-check generates RFC-valid local parts; ours are a practical subset without quotes.
        expect(validateEmail(email).valid || /["\s]/.test(email)).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });
});

describe('validateName', () => {
  it('gives the spec message for each failure', () => {
    expect(errorOf(validateName(''))).toBe(M.nameRequired);
    expect(errorOf(validateName(' a '))).toBe(M.nameTooShort);
    expect(errorOf(validateName('a'.repeat(101)))).toBe(M.nameTooLong);
    expect(errorOf(validateName('<script>alert(1)</script>'))).toBe(M.nameInvalidContent);
    expect(errorOf(validateName('Bob onclick=x'))).toBe(M.nameInvalidContent);
    expect(errorOf(validateName('R2-D2'))).toBe(M.nameBadChars);
    expect(errorOf(validateName('Sam_Jones'))).toBe(M.nameBadChars);
  });

  it('accepts real names from many places', () => {
    for (const name of ["Siobhán O'Neill", 'Jean-Luc Picard', 'Dr. Amara Okafor', 'Zoë', 'Łukasz Żuk', '李小龍', 'Nguyễn Thị Minh', 'Ana María’s']) {
      expect(validateName(name), name).toEqual({ valid: true });
    }
  });

  it('accepts only names of 2 to 100 allowed characters', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 120 }), (name) => {
        const result = validateName(name);
        if (result.valid) {
          const trimmed = name.trim();
          expect(trimmed.length).toBeGreaterThanOrEqual(2);
          expect(trimmed.length).toBeLessThanOrEqual(100);
          expect(trimmed).toMatch(/^[\p{L}\p{M} .'’-]+$/u);
        }
      }),
      { numRuns: 5000 },
    );
  });
});

describe('validateContent', () => {
  it('gives the spec message for each failure', () => {
    expect(errorOf(validateContent(''))).toBe(M.contentRequired);
    expect(errorOf(validateContent('x'.repeat(5001)))).toBe('Content must be less than 5000 characters');
    expect(errorOf(validateContent('x'.repeat(201), 200))).toBe('Content must be less than 200 characters');
    expect(errorOf(validateContent('<b>1</b><i>2</i><u>3</u>'))).toBe(M.contentTooManyTags);
    expect(errorOf(validateContent('<script>alert(1)</script>'))).toBe(M.contentHarmful);
    expect(errorOf(validateContent('<img src=x onerror=alert(1)>'))).toBe(M.contentHarmful);
    expect(errorOf(validateContent('click javascript:alert(1)'))).toBe(M.contentHarmful);
    expect(validateContent('A gentle practice for <em>slow</em> evenings.').valid).toBe(true);
  });
});

describe('sanitizers', () => {
  it('sanitizeText removes every real tag, keeps all other text as typed, and respects the length cap', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 3000 }), fc.integer({ min: 1, max: 1200 }), (input, max) => {
        const out = sanitizeText(input, max);
        expect(Array.from(out).length).toBeLessThanOrEqual(max);
        expect(out).not.toMatch(/<\/?[a-z][^<>]*>/i);
        expect(out).toBe(out.trim());
      }),
      { numRuns: 3000 },
    );
    // decision 0017: no escaping at rest, and a lone '<' is text.
    expect(sanitizeText('I <3 mornings & tea')).toBe('I <3 mornings & tea');
    expect(sanitizeText("  Siobhán O'Brien ")).toBe("Siobhán O'Brien");
    expect(sanitizeText('  <b>Hello</b> & "you"  ')).toBe('Hello & "you"');
    expect(sanitizeText('<script>alert(1)</script>ok')).toBe('alert(1)ok');
    // Removing one tag must not leave another behind.
    expect(sanitizeText('<<b>script>alert(1)<</b>/script>')).toBe('alert(1)');
    expect(sanitizeText('x'.repeat(2000))).toHaveLength(1000);
    expect(sanitizeText('🌊'.repeat(10), 3)).toBe('🌊🌊🌊');
  });

  it('sanitizeEmail trims and lower-cases, and keeps the address otherwise as typed (a + tag is another mailbox)', () => {
    expect(sanitizeEmail('  Sam.Jones@Example.COM ')).toBe('sam.jones@example.com');
    expect(sanitizeEmail('Ada+Beta@Example.com')).toBe('ada+beta@example.com');
    expect(sanitizeEmail(`${'a'.repeat(300)}@example.com`)).toHaveLength(254);
  });
});

/** Every C0 control (NUL included), DEL and every C1 control. */
const CONTROLS = [...Array.from({ length: 0x20 }, (_, i) => i), ...Array.from({ length: 0x21 }, (_, i) => 0x7f + i)].map((c) => String.fromCharCode(c));
const MULTILINE_ALLOWED = new Set(['\t', '\n', '\r']);

describe('control characters (a NUL reached PostgreSQL and answered 500)', () => {
  it('are refused in an e-mail address, a name and content text with the spec messages', () => {
    for (const c of CONTROLS) {
      const label = `U+${c.charCodeAt(0).toString(16).padStart(4, '0')}`;
      expect(errorOf(validateEmail(`sam${c}@example.com`)), label).toBe(M.emailBadChars);
      expect(errorOf(validateName(`Sam${c}Jones`)), label).toBe(M.nameBadChars);
      // Also at the ends, where trimming would otherwise hide whitespace-like controls.
      expect(validateEmail(`sam@example.com${c}`).valid, label).toBe(false);
      expect(validateName(`${c}Sam Jones`).valid, label).toBe(false);
      if (MULTILINE_ALLOWED.has(c)) expect(validateContent(`Breathe${c}in`), label).toEqual({ valid: true });
      else expect(errorOf(validateContent(`Breathe${c}in`)), label).toBe(M.contentHarmful);
    }
  });

  it('a control character anywhere makes every validator refuse', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 40 }), fc.constantFrom(...CONTROLS), fc.string({ maxLength: 40 }), (a, c, b) => {
        const text = `${a}${c}${b}`;
        fc.pre(text.trim() !== '');
        expect(validateEmail(text).valid).toBe(false);
        expect(validateName(text).valid).toBe(false);
        if (!MULTILINE_ALLOWED.has(c)) expect(validateContent(text).valid).toBe(false);
      }),
      { numRuns: 3000 },
    );
  });

  it('hasControlCharacters allows tab and line breaks only in multi-line text', () => {
    expect(hasControlCharacters('Line one\r\nLine two\tend', { multiline: true })).toBe(false);
    expect(hasControlCharacters('Line one\nLine two')).toBe(true);
    expect(hasControlCharacters('Zoë – Łukasz 李小龍 \u00a0 😀')).toBe(false);
    expect(hasControlCharacters('\u0085')).toBe(true);
  });

  it('findControlCharacters names the first offending string in a parsed body, skipping listed keys', () => {
    expect(findControlCharacters({ email: 'a@b.co', name: 'Sam', image: null, n: 1 })).toBeUndefined();
    expect(findControlCharacters({ email: 'a@b.co', nested: { list: ['ok', 'x\u0000'] } })).toBe('nested.list.1');
    expect(findControlCharacters({ ['k\u0000']: 1 })).toBe('k\u0000');
    expect(findControlCharacters({ password: 'p\u0000ss', name: 'Sam' }, { skip: ['password'] })).toBeUndefined();
    expect(findControlCharacters('\u001b[31m')).toBe('(value)');
    const deep = JSON.parse(`${'['.repeat(100_000)}"\\u0000"${']'.repeat(100_000)}`) as unknown;
    expect(findControlCharacters(deep)).toMatch(/^0(\.0)+$/);
  });

  it('nestedDeeperThan measures nesting without recursion', () => {
    expect(nestedDeeperThan({ email: 'a@b.co', n: 1 }, 1)).toBe(false);
    expect(nestedDeeperThan({ a: { b: 1 } }, 1)).toBe(true);
    expect(nestedDeeperThan({ a: [{ b: 1 }] }, 3)).toBe(false);
    expect(nestedDeeperThan('text', 0)).toBe(false);
    expect(nestedDeeperThan(JSON.parse(`${'['.repeat(100_000)}${']'.repeat(100_000)}`), 8)).toBe(true);
  });

  it('sanitizeText drops control characters but keeps line breaks and tabs', () => {
    expect(sanitizeText('a\u0000b\u0085c\u007fd\ne\tf')).toBe('abcd\ne\tf');
  });
});

