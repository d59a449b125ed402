// @vitest-environment jsdom
/**
 * A policy's date changes only when its words do (issue 33): each legal page's words must hash to its
 * newest version in policy-versions.ts. Changing the words without a new dated version (with what
 * changed) fails here; so does a new date without new words.
 */
import { createHash } from 'node:crypto';
import { cleanup, render } from '@testing-library/react';
import type { ReactNode } from 'react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { CookiesPage } from '#web/features/pages/cookies-page.tsx';
import { POLICY_VERSIONS, type Policy } from '#web/features/pages/policy-versions.ts';
import { PrivacyPage } from '#web/features/pages/privacy-page.tsx';
import { TermsPage } from '#web/features/pages/terms-page.tsx';

const PAGES: Record<Policy, () => ReactNode> = { privacy: () => <PrivacyPage />, cookies: () => <CookiesPage />, terms: () => <TermsPage /> };

/** The policy's words as a reader gets them: the page's text without its date and history, spaces collapsed. */
function wordsOf(page: ReactNode): string {
  const { container } = render(<MemoryRouter>{page}</MemoryRouter>);
  const copy = container.cloneNode(true) as HTMLElement;
  for (const meta of copy.querySelectorAll('[data-policy-meta]')) meta.remove();
  return copy.textContent.replace(/\s+/g, ' ').trim();
}

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

afterEach(cleanup);

describe.each(Object.keys(PAGES) as Policy[])('the %s policy', (policy) => {
  const versions = POLICY_VERSIONS[policy];

  it('has the words of its newest version: new words need a new date and a change list', () => {
    const words = wordsOf(PAGES[policy]());
    expect(words.length).toBeGreaterThan(200);
    const newest = versions.at(-1);
    expect(
      sha256(words),
      `The ${policy} policy's words changed. Add a version to POLICY_VERSIONS.${policy} (src/web/features/pages/policy-versions.ts) with today's date, what changed, and textSha256: '${sha256(words)}'.`,
    ).toBe(newest?.textSha256);
  });

  it('dates each version once, says what each changed, and never dates the same words twice', () => {
    const dates = versions.map((v) => Date.parse(v.date));
    expect(dates.every((d) => !Number.isNaN(d))).toBe(true);
    for (let i = 1; i < dates.length; i += 1) expect(dates[i], versions[i].date).toBeGreaterThan(dates[i - 1]);
    expect(versions.every((v) => v.changes.length > 0 && v.changes.every((c) => c.trim().length > 0))).toBe(true);
    expect(new Set(versions.map((v) => v.textSha256)).size).toBe(versions.length);
  });

  it('shows the newest date as "Last updated" and every version in "What changed"', () => {
    const { getByText, getByRole } = render(<MemoryRouter>{PAGES[policy]()}</MemoryRouter>);
    expect(getByText(`Last updated ${versions.at(-1)?.date ?? ''}`)).toBeTruthy();
    const history = getByRole('heading', { name: 'What changed' }).closest('section');
    for (const v of versions) for (const change of v.changes) expect(history?.textContent).toContain(change);
  });
});
