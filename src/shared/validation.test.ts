import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sanitizeEmail, sanitizeText, validateContent, validateEmail, validateName, VALIDATION_MESSAGES as M } from '#shared/validation.ts';

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
  it('sanitizeText leaves no markup-capable character and respects the length cap', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 3000 }), fc.integer({ min: 1, max: 1200 }), (input, max) => {
        const out = sanitizeText(input, max);
        expect(out.length).toBeLessThanOrEqual(max);
        expect(out).not.toMatch(/[<>"']/);
        expect(out).not.toMatch(/&(?!(amp|lt|gt|quot|#x27|#x2F);)/);
        expect(out).toBe(out.trim());
      }),
      { numRuns: 3000 },
    );
    expect(sanitizeText('  <b>Hello</b> & "you"  ')).toBe('Hello &amp; &quot;you&quot;');
    expect(sanitizeText('<script>alert(1)</script>ok')).toBe('alert(1)ok');
    expect(sanitizeText('x'.repeat(2000))).toHaveLength(1000);
  });

  it('sanitizeEmail keeps only a-z 0-9 @ . _ - and at most 254 characters', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 400 }), (input) => {
        const out = sanitizeEmail(input);
        expect(out).toMatch(/^[a-z0-9@._-]*$/);
        expect(out.length).toBeLessThanOrEqual(254);
      }),
      { numRuns: 3000 },
    );
    expect(sanitizeEmail('  Sam.Jones@Example.COM ')).toBe('sam.jones@example.com');
  });
});
