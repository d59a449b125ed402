// @vitest-environment jsdom
/**
 * Programmes' pages and home card against answers as the server sends them (decision 0051): the list's
 * loading, empty and error states and links that name their length; a programme's days; "Start
 * programme" playing day 1 inside the tap and enrolling in the device's time zone; the home card's
 * "{title} · Day N of M" and its one tap; leaving behind a confirmation.
 */
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { Route, Routes } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { MeditationCard } from '#shared/contracts/catalogue.ts';
import type { ProgrammeDetail, ProgrammeProgressView } from '#shared/contracts/programmes.ts';
import { ProgrammeHomeCard } from '#web/features/programmes/programme-home-card.tsx';
import { ProgrammePage } from '#web/features/programmes/programme-page.tsx';
import { ProgrammesPage } from '#web/features/programmes/programmes-page.tsx';
import { answerFetch, json, renderWithQueries } from '#tests/setup/render-web.tsx';

const subscriber = { userId: 'u1', role: 'user', subscribed: true } as const;
const viewer: { status: string; signedIn: boolean; offline: boolean; canListen: boolean; user: { id: string; name: string }; who: typeof subscriber | null } = { status: 'signed-in', signedIn: true, offline: false, canListen: true, user: { id: 'u1', name: 'Ivy Marsh' }, who: subscriber };
const choose = vi.fn();
vi.mock('#web/features/auth/use-viewer.ts', () => ({ useViewer: () => viewer }));
vi.mock('#web/features/player/player-context.tsx', () => ({ usePlayer: () => ({ current: null, choose }) }));

const card = (id: string, title: string, free = false): MeditationCard => ({ id, title, description: '', duration: '1 min', durationSeconds: 60, category: 'mindfulness', categories: ['mindfulness'], tags: [], hasTranscript: false, free, createdAt: '2026-01-01T00:00:00.000Z' });
const cards = [card('m1', 'Just This Breath', true), card('m2', 'A Single Breath'), card('m3', 'The Pause Between')];
/** GET /api/meditations?category=all as the server answers it. */
const listing = { category: { slug: 'all', title: 'All Meditations', description: 'Every meditation.' }, meditations: cards };
const detail: ProgrammeDetail = {
  id: 'p1',
  slug: 'seven-days-of-calm',
  title: 'Seven Days of Calm',
  description: 'A gentle week.',
  cover: 'mindfulness',
  dayCount: 3,
  days: cards.map((c, i) => ({ number: i + 1, meditation: { id: c.id, title: c.title, duration: '1 min', durationSeconds: 60, free: c.free }, reflection: i === 0 ? 'What did you notice?' : null })),
};
const progress = (over: Partial<ProgrammeProgressView> = {}): ProgrammeProgressView => ({
  slug: detail.slug,
  title: detail.title,
  dayCount: 3,
  startedAt: '2026-11-27T09:00:00.000Z',
  timeZone: 'UTC',
  doneCount: 1,
  current: 2,
  opensOn: null,
  finished: false,
  days: [
    { number: 1, state: 'done', doneAt: '2026-11-27T09:10:00.000Z' },
    { number: 2, state: 'open', doneAt: null },
    { number: 3, state: 'later', doneAt: null },
  ],
  ...over,
});

beforeEach(() => {
  choose.mockReset();
  viewer.signedIn = true;
  viewer.canListen = true;
  viewer.who = subscriber;
  viewer.status = 'signed-in';
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('/programmes', () => {
  it('lists the programmes, each link naming its length and the person’s day', async () => {
    answerFetch((url) =>
      url.endsWith('/api/me/programmes') ? json({ enrolments: [progress()] }) : json({ programmes: [{ id: 'p1', slug: detail.slug, title: detail.title, description: detail.description, cover: 'mindfulness', dayCount: 7 }] }),
    );
    renderWithQueries(<ProgrammesPage />, { router: true });
    const link = await screen.findByRole('link', { name: /Seven Days of Calm.*7 days/ });
    expect(link.getAttribute('href')).toBe('/programmes/seven-days-of-calm');
    await within(link).findByText(/Day 2 of 3/);
  });

  it('says so when there are none, and offers a retry when the list cannot load', async () => {
    answerFetch((url) => (url.endsWith('/api/me/programmes') ? json({ enrolments: [] }) : json({ programmes: [] })));
    renderWithQueries(<ProgrammesPage />, { router: true });
    await screen.findByText('No programmes yet. New courses will appear here.');
    cleanup();

    let fail = true;
    answerFetch((url) => (url.endsWith('/api/me/programmes') ? json({ enrolments: [] }) : fail ? json({ error: { code: 'server/unavailable', message: 'Down' } }, 503) : json({ programmes: [] })));
    renderWithQueries(<ProgrammesPage />, { router: true });
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Programmes could not be loaded.');
    fail = false;
    fireEvent.click(within(alert).getByRole('button', { name: 'Try again' }));
    await screen.findByText('No programmes yet. New courses will appear here.');
  });
});

describe('/programmes/:slug', () => {
  const show = () =>
    renderWithQueries(
      <Routes>
        <Route path="/programmes/:slug" element={<ProgrammePage />} />
        <Route path="/subscribe" element={<p>Subscribe page</p>} />
      </Routes>,
      { router: '/programmes/seven-days-of-calm' },
    );

  it('shows the days, and "Start programme" plays day 1 at once and enrols in this device’s time zone', async () => {
    let enrolled = false;
    const fetch = answerFetch((url, init) => {
      if (url.includes('/api/meditations')) return json(listing);
      if (url.endsWith('/enrolment') && init?.method === 'POST') {
        enrolled = true;
        return json({ progress: progress({ doneCount: 0, current: 1 }) });
      }
      if (url.endsWith('/progress')) return json({ progress: enrolled ? progress({ doneCount: 0, current: 1 }) : null });
      return json(detail);
    });
    show();
    await screen.findByRole('heading', { name: 'Seven Days of Calm', level: 1 });
    expect(screen.getAllByRole('heading', { level: 2 }).map((h) => h.textContent)).toEqual(['Day 1', 'Day 2', 'Day 3']);
    expect(screen.getByRole('link', { name: 'Reflect in your journal: day 1' }).getAttribute('href')).toBe('/journal?prompt=What+did+you+notice%3F');
    // Ready once the catalogue's cards (what the player plays) have arrived.
    const start = await screen.findByRole('button', { name: 'Start programme' });
    await waitFor(() => expect(start.hasAttribute('disabled')).toBe(false));
    fireEvent.click(start);
    expect(choose).toHaveBeenCalledWith(cards[0], [cards[0]]);
    await screen.findByText('Day 1 of 3');
    const [, init] = fetch.mock.calls.find(([url, i]) => url.endsWith('/enrolment') && i?.method === 'POST') ?? [];
    expect(JSON.parse(init?.body as string)).toEqual({ timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone, restart: false });
  });

  it('says a missing programme is missing', async () => {
    answerFetch(() => json({ error: { code: 'not-found', message: 'This programme does not exist, or is no longer offered.' } }, 404));
    show();
    expect((await screen.findByRole('alert')).textContent).toContain('This programme does not exist, or is no longer offered.');
  });

  it('asks a visitor to sign in, and marks the days that need the subscription', async () => {
    viewer.signedIn = false;
    viewer.canListen = false;
    viewer.who = null;
    viewer.status = 'signed-out';
    answerFetch((url) => (url.includes('/api/meditations') ? json(listing) : json(detail)));
    show();
    expect((await screen.findByRole('link', { name: 'Sign in to start' })).getAttribute('href')).toContain('/sign-in');
    expect(screen.getAllByText('Subscribers only')).toHaveLength(2);
    expect(screen.getAllByText('Free to try')).toHaveLength(1);
  });

  it('leaves only after the confirmation', async () => {
    let left = false;
    const fetch = answerFetch((url, init) => {
      if (url.includes('/api/meditations')) return json(listing);
      if (init?.method === 'DELETE') {
        left = true;
        return json({ left: true });
      }
      if (url.endsWith('/progress')) return json({ progress: left ? null : progress() });
      return json(detail);
    });
    show();
    fireEvent.click(await screen.findByRole('button', { name: 'Leave programme' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Leave this programme?' });
    expect(fetch.mock.calls.some(([, i]) => i?.method === 'DELETE')).toBe(false);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Leave programme' }));
    await screen.findByRole('button', { name: 'Start programme' });
  });
});

describe('home card', () => {
  it('shows "{title} · Day N of M" and plays the day in one tap', async () => {
    answerFetch((url) => {
      if (url.endsWith('/api/me/programmes')) return json({ enrolments: [progress()] });
      if (url.includes('/api/meditations')) return json(listing);
      return json(detail);
    });
    renderWithQueries(<ProgrammeHomeCard />, { router: true });
    const section = await screen.findByRole('region', { name: 'Your programme' });
    expect(section.textContent).toContain('Seven Days of Calm · Day 2 of 3');
    const play = within(section).getByRole('button', { name: 'Continue: Seven Days of Calm, Day 2 of 3' });
    await waitFor(() => expect(play.hasAttribute('disabled')).toBe(false));
    fireEvent.click(play);
    expect(choose).toHaveBeenCalledWith(cards[1], [cards[1]]);
  });

  it('offers "Don’t wait" when the next day opens tomorrow, and a quiet link when nothing is in progress', async () => {
    const fetch = answerFetch((url, init) => {
      if (init?.method === 'POST') return json({ progress: progress() });
      if (url.endsWith('/api/me/programmes')) return json({ enrolments: [progress({ opensOn: '2026-11-28', days: [] })] });
      if (url.includes('/api/meditations')) return json(listing);
      return json(detail);
    });
    renderWithQueries(<ProgrammeHomeCard />, { router: true });
    await screen.findByText('Opens tomorrow');
    fireEvent.click(screen.getByRole('button', { name: /Don’t wait/ }));
    await waitFor(() => expect(fetch.mock.calls.some(([url, i]) => url.endsWith('/enrolment/open-next') && i?.method === 'POST')).toBe(true));
    cleanup();

    answerFetch(() => json({ enrolments: [progress({ finished: true, current: null })] }));
    renderWithQueries(<ProgrammeHomeCard />, { router: true });
    expect((await screen.findByRole('link', { name: 'Programmes' })).getAttribute('href')).toBe('/programmes');
  });
});
