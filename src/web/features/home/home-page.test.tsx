// @vitest-environment jsdom
/**
 * A member's home is the Today page from the first frame: its level-one heading is there while the
 * section's code loads and if that code cannot load, and the programme card loading beside it does
 * not blank it (axe found the page without a level-one heading in a browser journey).
 */
import { cleanup, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, expect, it, vi } from 'vitest';

const chunks: { today: () => Promise<unknown> } = vi.hoisted(() => ({ today: () => new Promise(() => undefined) }));
vi.mock('#web/features/auth/use-viewer.ts', () => ({ useViewer: () => ({ status: 'signed-in', signedIn: true, user: { name: 'Maren Holt' }, role: 'user', who: { userId: 'u1', role: 'user', subscribed: true }, canListen: true, offline: false }) }));
vi.mock('#web/lazy-chunks.ts', () => ({ loadTodaySection: () => chunks.today() }));
// The programme card's chunk never arrives: it must not hold Today back.
vi.mock('#web/features/programmes/programme-home-card.tsx', () => new Promise(() => undefined));
vi.mock('#web/features/home/try-free-button.tsx', () => ({ TryFreeButton: () => null }));

afterEach(cleanup);

const renderHome = async () => {
  const { HomePage } = await import('#web/features/home/home-page.tsx');
  render(
    <MemoryRouter>
      <HomePage />
    </MemoryRouter>,
  );
};

it('has its heading while Today’s code is still loading', async () => {
  await renderHome();
  expect((await screen.findByRole('heading', { level: 1 })).textContent).toBe('Today');
});

it('keeps its heading when Today’s code cannot load, and shows the loaded section beside a programme card still loading', async () => {
  chunks.today = () => Promise.reject(new Error('offline'));
  await renderHome();
  expect((await screen.findByRole('heading', { level: 1 })).textContent).toBe('Today');

  cleanup();
  vi.resetModules();
  chunks.today = () => Promise.resolve({ TodaySection: () => <p>Good morning, Maren</p> });
  await renderHome();
  expect(await screen.findByText('Good morning, Maren')).toBeTruthy();
});
