import { describe, expect, it } from 'vitest';
import { journalAboutMood, journalAboutText } from '#web/features/journal/journal-about.ts';
import { journalAboutPath, journalPromptPath } from '#web/features/journal/journal-links.ts';

describe("'Write about it': the journal entry that names a meditation", () => {
  it('round-trips a title through the address', () => {
    expect(journalAboutText(new URL(`https://x${journalAboutPath('A Single Breath & Rest')}`).searchParams)).toBe('After “A Single Breath & Rest”: ');
  });

  it('starts blank without a title, and keeps a hostile one as short plain text', () => {
    expect(journalAboutText(new URLSearchParams())).toBe('');
    expect(journalAboutText(new URLSearchParams({ about: '   ' }))).toBe('');
    expect(journalAboutText(new URLSearchParams({ about: 'Calm\u0000\u001b[31m\u0085' }))).toBe('After “Calm[31m”: ');
    expect(journalAboutText(new URLSearchParams({ about: 'x'.repeat(500) }))).toHaveLength('After “”: '.length + 200);
  });

  it('carries the mood of the one-tap check, and only a whole number on the journal’s scale', () => {
    const params = (path: string) => new URL(`https://x${path}`).searchParams;
    expect(journalAboutMood(params(journalAboutPath('Calm', 8)))).toBe(8);
    expect(journalAboutText(params(journalAboutPath('Calm', 8)))).toBe('After “Calm”: ');
    expect(journalAboutMood(params(journalAboutPath('Calm')))).toBeNull();
    for (const bad of ['0', '11', '7.5', '-3', ' 7', '07x', '1e1', '', '999']) expect(journalAboutMood(new URLSearchParams({ mood: bad })), bad).toBeNull();
    expect(journalAboutMood(new URLSearchParams({ mood: '10' }))).toBe(10);
  });

  it('opens with a programme day’s reflection prompt, as plain text', () => {
    const params = (path: string) => new URL(`https://x${path}`).searchParams;
    expect(journalAboutText(params(journalPromptPath('What did you notice today?')))).toBe('What did you notice today?\n');
    expect(journalAboutText(new URLSearchParams({ prompt: '<b>Hello</b>\u0000' }))).toBe('Hello\n');
  });
});
