// @vitest-environment jsdom
/**
 * The heart tapped before /api/me has answered (a prepared page just made live, or the apps reading
 * their session from the device first): it waits to know who tapped. It used to tell a signed-in
 * person 'Please sign in to save meditations' and save nothing (the native-shell e2e's flake).
 */
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { MeditationCard } from '#shared/contracts/catalogue.ts';
import { MESSAGES } from '#shared/messages.ts';
import { FavouriteButton } from '#web/features/favourites/favourite-button.tsx';
import { answerFetch, json, renderWithQueries } from '#tests/setup/render-web.tsx';

const shown = vi.hoisted(() => [] as string[]);
vi.mock('#web/lib/toast.ts', () => {
  const note = (title: string) => void shown.push(title);
  return { toast: { success: note, error: note, info: note, warning: note } };
});

const breath: MeditationCard = {
  id: 'm-breath',
  title: 'A Single Breath',
  description: 'One full breath.',
  duration: '25 sec',
  durationSeconds: 25,
  category: 'mindfulness',
  categories: ['mindfulness'],
  tags: [],
  hasTranscript: true,
  free: false,
  createdAt: '2026-01-01T00:00:00.000Z',
};
const ivy = { user: { id: 'u1', email: 'ivy@example.com', name: 'Ivy', emailVerified: true, createdAt: '2026-01-01T00:00:00Z' }, role: 'user', subscribed: true };
const visitor = { user: null, role: null, subscribed: false };

/** The server, with /api/me held until the test answers it. */
function serverWithSlowMe() {
  let answerMe!: (me: unknown) => void;
  const me = new Promise<unknown>((resolve) => (answerMe = resolve));
  const saved: { meditation: MeditationCard; savedAt: string }[] = [];
  const fetch = answerFetch(async (url, init) => {
    if (url.endsWith('/api/me')) return json(await me);
    if (url.endsWith('/api/favourites')) return json({ favourites: saved });
    if (url.endsWith(`/api/favourites/${breath.id}`) && init?.method === 'PUT') {
      const favourite = { meditation: breath, savedAt: new Date().toISOString() };
      saved.push(favourite);
      return json(favourite, 201);
    }
    return json({ error: { code: 'not-found', message: 'Not found' } }, 404);
  });
  const saves = () => fetch.mock.calls.filter(([url, init]) => url.endsWith(`/api/favourites/${breath.id}`) && init?.method === 'PUT').length;
  return { answerMe, saves };
}

beforeEach(() => {
  shown.length = 0;
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('the heart before the viewer is known', () => {
  it('saves for a signed-in person once /api/me answers, and never asks them to sign in', async () => {
    const server = serverWithSlowMe();
    renderWithQueries(<FavouriteButton meditation={breath} />, { router: true });
    fireEvent.click(screen.getByRole('button', { name: 'Save A Single Breath to favourites' }));
    expect(server.saves()).toBe(0);
    expect(shown).toEqual([]);

    server.answerMe(ivy);
    await waitFor(() => expect(shown).toEqual([MESSAGES.favourites.added('A Single Breath')]));
    expect(server.saves()).toBe(1);
    await screen.findByRole('button', { name: 'Remove A Single Breath from favourites' });
  });

  it('gives a visitor the sign-in note once it is known nobody is signed in, and saves nothing', async () => {
    const server = serverWithSlowMe();
    renderWithQueries(<FavouriteButton meditation={breath} />, { router: true });
    fireEvent.click(screen.getByRole('button', { name: 'Save A Single Breath to favourites' }));

    server.answerMe(visitor);
    await waitFor(() => expect(shown).toEqual([MESSAGES.favourites.authRequiredTitle]));
    expect(server.saves()).toBe(0);
  });
});
