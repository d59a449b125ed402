// @vitest-environment jsdom
/** The end of a sitting or a breathing exercise (practice-finished.tsx): what each outcome says, and a visitor's way to an account. */
import { createRef } from 'react';
import { MemoryRouter } from 'react-router';
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { PracticeOutcome } from '#shared/practice.ts';
import { PracticeFinished } from '#web/features/practice/practice-finished.tsx';

afterEach(cleanup);

const finished = (outcome: PracticeOutcome | null, { what = 'sitting', partial = false }: { what?: 'sitting' | 'exercise'; partial?: boolean } = {}) =>
  render(
    <MemoryRouter>
      <PracticeFinished
        headingRef={createRef()}
        heading="Sitting ended"
        summary="You sat for 3 minutes of 10 minutes."
        what={what}
        outcome={outcome}
        partial={partial}
        visitor={{ path: '/timer', counts: 'your sittings' }}
        again={{ label: 'Sit again', onClick: () => undefined }}
        testId="timer-outcome"
      />
    </MemoryRouter>,
  );

describe('the end of a timed practice', () => {
  it('says what became of its record, a partial one as partial, and names what the server refused', () => {
    finished('recorded', { partial: true });
    expect(screen.getByTestId('timer-outcome').textContent).toBe('Added to your practice as a partial session.');
    cleanup();
    finished('recorded');
    expect(screen.getByTestId('timer-outcome').textContent).toBe('Added to your practice.');
    cleanup();
    finished('refused', { what: 'exercise' });
    expect(screen.getByTestId('timer-outcome').textContent).toBe('This exercise could not be added to your practice.');
    cleanup();
    finished(null);
    expect(screen.getByTestId('timer-outcome').textContent).toBe('');
  });

  it('offers a visitor a free account that comes back to the page, and both ways on', () => {
    finished('visitor');
    expect(screen.getByRole('link', { name: 'Create a free account' }).getAttribute('href')).toBe('/sign-up?next=%2Ftimer');
    expect(screen.getByTestId('timer-outcome').textContent).toBe('Create a free account to count your sittings in your practice.');
    expect(screen.getByRole('heading', { level: 1, name: 'Sitting ended' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Sit again' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Back to home' }).getAttribute('href')).toBe('/');
  });
});
