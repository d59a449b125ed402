// @vitest-environment jsdom
/**
 * "Today" on home picks up only what is really in progress (issue 38: "Continue where you left off"
 * offered "Letting the Day Go", never played: it showed the next track). The section's data hooks are
 * stood in for; the picks and the device's positions store are the real ones.
 */
import { cleanup, render, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { MeditationCard } from '#shared/contracts/catalogue.ts';
import { rememberPosition, setPositionsOwner } from '#web/features/player/positions.ts';
import { TodaySection } from '#web/features/home/today-section.tsx';

const card = (id: string, title: string, category: string): MeditationCard => ({ id, title, description: '', duration: '10 min', durationSeconds: 600, category, categories: [category], tags: [], hasTranscript: false, free: false, createdAt: '2026-01-01T00:00:00.000Z' });
const meditations = [card('e1', 'Unwinding the Shoulders', 'evening'), card('e2', 'Letting the Day Go', 'evening'), card('m1', 'First Light', 'morning'), { ...card('f1', 'Just This Breath', 'mindfulness'), free: true }];

const subscriber = { userId: 'u1', role: 'user', subscribed: true } as const;
const viewer: { signedIn: boolean; offline: boolean; canListen: boolean; user: { id: string; name: string }; who: typeof subscriber | { userId: string; role: 'user'; subscribed: false } } = { signedIn: true, offline: false, canListen: true, user: { id: 'u1', name: 'Ivy Marsh' }, who: subscriber };
vi.mock('#web/features/auth/use-viewer.ts', () => ({ useViewer: () => viewer }));
vi.mock('#web/features/downloads/use-downloaded-ids.ts', () => ({ useDownloadedIds: () => new Set() }));
vi.mock('#web/features/home/try-free-button.tsx', () => ({ TryFreeButton: () => <button type="button">Try a free meditation</button> }));
vi.mock('#web/features/practice/use-practice.ts', () => ({
  usePractice: () => ({ isPending: false, isError: false, data: { today: '2026-11-27', week: [], showStreaks: false, currentStreak: 0, lastMeditationId: 'e1', focus: 'sleep' } }),
}));
vi.mock('#web/features/billing/use-subscription.ts', () => ({ useSubscription: () => ({ data: undefined }), formatDate: (x: string) => x }));
vi.mock('#web/features/practice/use-played.ts', () => ({ usePlayed: () => new Set(['e1']) }));
vi.mock('#web/features/catalogue/use-meditations.ts', () => ({ useMeditations: () => ({ data: { meditations } }) }));
vi.mock('#web/features/player/player-context.tsx', () => ({ usePlayer: () => ({ current: null, choose: () => undefined }) }));
vi.mock('#web/features/favourites/use-favourites.ts', () => ({ useToggleFavourite: () => ({ isSaved: () => false, toggle: () => undefined }) }));
vi.mock('#web/features/practice/focus-question.tsx', () => ({ FocusQuestion: () => null }));
vi.mock('#web/features/catalogue/meditation-card.tsx', () => ({ MeditationCard: ({ meditation }: { meditation: MeditationCard }) => <p data-testid="card">{meditation.title}</p> }));

const show = () =>
  render(
    <MemoryRouter>
      <TodaySection />
    </MemoryRouter>,
  );

beforeEach(() => {
  viewer.canListen = true;
  viewer.who = subscriber;
  localStorage.clear();
  setPositionsOwner('u1');
});
afterEach(cleanup);

/** The row `testId` is on screen under `heading`, with exactly these cards; returns the row. */
const expectRow = (testId: string, heading: string, titles: string[]) => {
  const row = screen.getByTestId(testId);
  expect(within(row).getByRole('heading', { name: heading })).toBeTruthy();
  expect(within(row).getAllByTestId('card').map((c) => c.textContent)).toEqual(titles);
  return row;
};

describe('TodaySection: continue and up next', () => {
  it('never offers a track that was not started as "Continue where you left off"; the next one is "Up next"', () => {
    show();
    expect(screen.queryByRole('heading', { name: 'Continue where you left off' })).toBeNull();
    expectRow('today-up-next', 'Up next', ['Letting the Day Go']);
  });

  it('offers the track actually in progress under "Continue where you left off"', () => {
    rememberPosition('m1', 200);
    show();
    expectRow('today-continue', 'Continue where you left off', ['First Light']);
  });

  it('a finished track (its position back at 0) is not in progress', () => {
    rememberPosition('m1', 0);
    show();
    expect(screen.queryByTestId('today-continue')).toBeNull();
  });
});

describe('TodaySection: the day at hand (issue 38, item 2)', () => {
  it('is the page’s heading, with tonight’s (or this morning’s) routine and the timer a tap away', () => {
    show();
    expect(screen.getByRole('heading', { level: 1, name: 'Today' })).toBeTruthy();
    const plan = screen.getByRole('navigation', { name: 'Practice for today' });
    expect(within(plan).getByRole('link', { name: /^(Tonight's routine|Morning routine)$/ })).toBeTruthy();
    expect(within(plan).getByRole('link', { name: 'Meditation timer' }).getAttribute('href')).toBe('/timer');
  });

  it('lists the free ones, with "Try a free meditation", for a member without a subscription; not for a subscriber', () => {
    show();
    expect(screen.queryByTestId('today-free')).toBeNull();
    cleanup();
    viewer.canListen = false;
    viewer.who = { userId: 'u1', role: 'user', subscribed: false };
    show();
    const free = expectRow('today-free', 'Free to try', ['Just This Breath']);
    expect(within(free).getByRole('button', { name: 'Try a free meditation' })).toBeTruthy();
  });
});
