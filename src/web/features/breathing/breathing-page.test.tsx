// @vitest-environment jsdom
/**
 * /breathe (issue 37, item 1): the phase in words in a polite live region, the countdown, the guide
 * still under reduced motion, Stop, and a finished exercise of a member sent as a breathing session.
 * The page, its engine and the session queue are the real ones; jsdom has no Web Audio, so the page's
 * own clock (faked here) runs the exercise, as it does wherever Web Audio is missing.
 */
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { RecordSessionBody } from '#shared/contracts/practice.ts';
import { BREATHING_MESSAGES } from '#shared/breathing.ts';

const viewer = vi.hoisted(() => ({ current: { status: 'signed-out', signedIn: false, user: null as { id: string } | null } }));
const sent = vi.hoisted(() => [] as unknown[]);
vi.mock('#web/features/auth/use-viewer.ts', () => ({ useViewer: () => viewer.current, VIEWER_QUERY_KEY: ['auth', 'me'] }));
vi.mock('#web/features/player/player-context.tsx', () => ({ usePlayer: () => ({ status: 'idle', toggle: () => undefined }) }));
vi.mock('#web/features/practice/use-practice.ts', () => ({
  PRACTICE_QUERY_KEY: ['practice'],
  sendSession: (body: unknown) => {
    sent.push(body);
    return Promise.resolve('sent');
  },
}));

const { BreathingPage } = await import('#web/features/breathing/breathing-page.tsx');

let reducedMotion = false;

beforeEach(() => {
  vi.useFakeTimers();
  localStorage.clear();
  sent.length = 0;
  reducedMotion = false;
  viewer.current = { status: 'signed-out', signedIn: false, user: null };
  window.matchMedia = ((query: string) => ({ matches: query.includes('reduce') && reducedMotion, media: query, addEventListener: () => undefined, removeEventListener: () => undefined })) as unknown as typeof window.matchMedia;
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

const show = () =>
  render(
    <MemoryRouter>
      <BreathingPage />
    </MemoryRouter>,
  );

/** Lets the page's clock run on `ms` and React take what changed. */
const pass = async (ms: number) => {
  await act(async () => {
    await vi.advanceTimersByTimeAsync(ms);
  });
};

const start = async () => {
  await act(async () => {
    fireEvent.click(screen.getByRole('button', { name: 'Start' }));
    await vi.advanceTimersByTimeAsync(0);
  });
};

/** Shows the page, chooses `pattern` (else keeps the first), presses Start and lets the first second run. */
const breatheFirstSecond = async (pattern?: string) => {
  show();
  if (pattern) fireEvent.click(screen.getByRole('radio', { name: pattern }));
  await start();
  await pass(1_000);
};

const liveRegion = () => screen.getByTestId('breathing-phase');
const countdown = () => screen.getByTestId('breathing-countdown').textContent;
/** Lets the clock run on `ms`, then the live region must say `words`. */
const saysAfter = async (ms: number, words: string) => {
  await pass(ms);
  expect(liveRegion().textContent).toBe(words);
};
const stop = () => fireEvent.click(screen.getByRole('button', { name: 'Stop' }));

describe('guided breathing', () => {
  it('offers the four patterns by name, then says each phase of 4-7-8 in a polite live region as it begins, with a countdown, until Stop', async () => {
    show();
    expect(screen.getByRole('heading', { name: 'Guided breathing', level: 1 })).toBeTruthy();
    expect(screen.getAllByRole('radio').map((radio) => radio.getAttribute('aria-labelledby') && document.getElementById(radio.getAttribute('aria-labelledby')!)?.textContent)).toEqual(['Box breathing', '4-7-8', 'Coherent breathing', 'Physiological sigh']);
    fireEvent.click(screen.getByRole('radio', { name: '4-7-8' }));
    expect(screen.getByRole<HTMLInputElement>('radio', { name: '4-7-8' }).checked).toBe(true);
    fireEvent.change(screen.getByLabelText('Length'), { target: { value: '3-cycles' } });
    await start();

    // The live region is on the page, empty, before its first words: a screen reader hears them as they come.
    expect(liveRegion().getAttribute('aria-live')).toBe('polite');
    expect(liveRegion().textContent).toBe('');
    expect(screen.getByRole('heading', { level: 1 }) === document.activeElement).toBe(true);
    // jsdom has no Web Audio: the page says the cues cannot sound, and goes on without them.
    expect(screen.getByText(BREATHING_MESSAGES.unsupported)).toBeTruthy();

    await saysAfter(1_000, 'Breathe in');
    expect(countdown()).toBe('4');
    expect(screen.getByTestId('breathing-cycle').textContent).toBe('Cycle 1 of 3');
    await pass(1_000);
    expect(countdown()).toBe('3');
    await saysAfter(3_000, 'Hold');
    expect(countdown()).toBe('7');
    await saysAfter(7_000, 'Breathe out');
    expect(countdown()).toBe('8');
    await saysAfter(8_000, 'Breathe in');
    expect(screen.getByTestId('breathing-cycle').textContent).toBe('Cycle 2 of 3');

    stop();
    await pass(0);
    expect(screen.getByRole('heading', { name: 'Exercise stopped', level: 1 }) === document.activeElement).toBe(true);
    expect(screen.getByText('You breathed for 19 seconds of 57 seconds.')).toBeTruthy();
    expect(screen.getByTestId('breathing-outcome').textContent).toContain('Create a free account');
    expect(sent).toEqual([]);
    // The choices stay on this device.
    fireEvent.click(screen.getByRole('button', { name: 'Breathe again' }));
    expect(screen.getByRole<HTMLInputElement>('radio', { name: '4-7-8' }).checked).toBe(true);
    expect(screen.getByLabelText<HTMLSelectElement>('Length').value).toBe('3-cycles');
  });

  it('keeps the guide still with reduced motion; the words and the countdown remain', async () => {
    reducedMotion = true;
    await breatheFirstSecond();
    const guide = screen.getByTestId('breathing-guide');
    expect(guide.dataset.motion).toBe('still');
    expect(guide.style.transform).toBe('');
    expect(guide.style.transition).toBe('');
    expect(liveRegion().textContent).toBe('Breathe in');
    expect(countdown()).toBe('4');
    await saysAfter(4_000, 'Hold');
    expect(guide.style.transform).toBe('');
    stop();
  });

  it('grows the guide over a breath in and shrinks it over a breath out when motion is welcome', async () => {
    await breatheFirstSecond('Coherent breathing');
    const guide = screen.getByTestId('breathing-guide');
    expect(guide.dataset.motion).toBe('moving');
    expect(guide.style.transform).toBe('scale(1)');
    expect(guide.style.transition).toBe('transform 5.5s ease-in-out');
    await saysAfter(5_500, 'Breathe out');
    expect(guide.style.transform).toBe('scale(0.45)');
    stop();
  });

  it('gives the sigh’s top-up breath its own words', async () => {
    await breatheFirstSecond('Physiological sigh');
    expect(liveRegion().textContent).toBe('Breathe in');
    await saysAfter(2_000, 'Breathe in again');
    await saysAfter(1_000, 'Breathe out');
    stop();
  });

  it('sends a member’s finished exercise as a breathing session and says it was added', async () => {
    viewer.current = { status: 'signed-in', signedIn: true, user: { id: 'member-1' } };
    show();
    fireEvent.click(screen.getByRole('checkbox', { name: 'Soft sound at each change' }));
    fireEvent.change(screen.getByLabelText('Length'), { target: { value: '1-cycles' } });
    await start();
    expect(screen.queryByText(BREATHING_MESSAGES.unsupported)).toBeNull();
    await pass(1_000 + 16_000);
    expect(screen.getByRole('heading', { name: 'Well done', level: 1 })).toBeTruthy();
    expect(screen.getByText('You breathed for 16 seconds.')).toBeTruthy();
    await pass(0);
    expect(screen.getByTestId('breathing-outcome').textContent).toBe('Added to your practice.');
    expect(sent).toEqual([{ kind: 'breathing', id: expect.any(String) as string, completedAt: expect.any(String) as string, breathing: { pattern: 'box', length: { count: 1, unit: 'cycles' }, breathedSeconds: 16 } } satisfies RecordSessionBody]);
  });

  it('does not count an exercise stopped within its first minute', async () => {
    viewer.current = { status: 'signed-in', signedIn: true, user: { id: 'member-2' } };
    show();
    await start();
    await pass(1_000 + 30_000);
    stop();
    await pass(0);
    expect(screen.getByTestId('breathing-outcome').textContent).toBe('Less than a minute, so it is not added to your practice.');
    expect(sent).toEqual([]);
  });
});
