import { describe, expect, it } from 'vitest';
import { safeNextPath, trialIntentPath, withNext } from '#shared/next-path.ts';

describe('safeNextPath', () => {
  it("keeps this app's pages with their query", () => {
    expect(safeNextPath('/subscribe?start=yearly')).toBe('/subscribe?start=yearly');
    expect(safeNextPath('/meditations/sleeping')).toBe('/meditations/sleeping');
    expect(safeNextPath('/welcome')).toBe('/welcome');
  });

  it('refuses other sites, unknown paths and tricks', () => {
    for (const raw of [
      null,
      '',
      'https://evil.example/subscribe',
      '//evil.example/subscribe',
      '/\\evil.example',
      '\\/evil.example',
      'javascript:alert(1)',
      '/api/me',
      '/nope',
      '/subscribe\u0000',
      '/subscribe\n',
      `/subscribe?x=${'a'.repeat(600)}`,
    ]) {
      expect(safeNextPath(raw), String(raw)).toBeNull();
    }
  });

  it('adds next only when it is safe', () => {
    expect(withNext('/verify-email', trialIntentPath('yearly'))).toBe('/verify-email?next=%2Fsubscribe%3Fstart%3Dyearly');
    expect(withNext('/sign-in?x=1', '/journal')).toBe('/sign-in?x=1&next=%2Fjournal');
    expect(withNext('/verify-email', 'https://evil.example')).toBe('/verify-email');
  });
});
