// @vitest-environment jsdom
/** The dashboard's Programmes tab: the shared schema's words before any request, then create, publish, order and delete. */
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AdminMeditation } from '#shared/contracts/admin.ts';
import type { AdminProgramme } from '#shared/contracts/programmes.ts';
import { PROGRAMME_MESSAGES as M } from '#shared/programmes.ts';
import { ProgrammesAdminTab } from '#web/features/programmes/programmes-admin-tab.tsx';
import { answerFetch, json, renderWithQueries } from '#tests/setup/render-web.tsx';

const FREE = '11111111-1111-4111-8111-111111111111';
const PAID = '22222222-2222-4222-8222-222222222222';
const programme = (id: string, title: string, published: boolean): AdminProgramme => ({
  id,
  slug: title.toLowerCase().replace(/\s+/g, '-'),
  title,
  description: 'A gentle week.',
  cover: 'mindfulness',
  dayCount: 2,
  published,
  position: 0,
  updatedAt: '2026-11-27T10:00:00.000Z',
  days: [
    { number: 1, meditationId: FREE, title: 'Just This Breath', free: true, reflection: 'What did you notice?' },
    { number: 2, meditationId: PAID, title: 'A Single Breath', free: false, reflection: null },
  ],
});
/** A catalogue entry as GET /api/admin/meditations answers it. */
const meditation = (id: string, title: string, free: boolean): AdminMeditation => ({
  id,
  title,
  description: '',
  category: 'mindfulness',
  categories: ['mindfulness'],
  duration: '5 min',
  durationSeconds: 300,
  tags: [],
  fileName: `${id}.mp3`,
  fileType: 'audio/mpeg',
  fileSizeBytes: 1000,
  hasTranscript: false,
  transcript: null,
  free,
  createdAt: '2026-11-01T10:00:00.000Z',
  updatedAt: '2026-11-01T10:00:00.000Z',
});
const P1 = '33333333-3333-4333-8333-333333333333';
const P2 = '44444444-4444-4444-8444-444444444444';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('Programmes tab', () => {
  it('checks a new programme with the shared words, then creates it with its days', async () => {
    const fetch = answerFetch((url, init) => {
      if (url.endsWith('/api/admin/meditations')) return json({ meditations: [meditation(FREE, 'Just This Breath', true), meditation(PAID, 'A Single Breath', false)] });
      if (init?.method === 'POST') return json(programme(P1, 'Seven Days of Calm', false), 201);
      return json({ programmes: [] });
    });
    renderWithQueries(<ProgrammesAdminTab />);
    await screen.findByText('No programmes yet. Create the first one above.');
    fireEvent.click(screen.getByRole('button', { name: 'New programme' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Create programme' }));
    expect((await screen.findByRole('alert')).textContent).toBe(M.badSlug);
    expect(fetch.mock.calls.some(([, init]) => init?.method === 'POST')).toBe(false);

    fireEvent.change(screen.getByLabelText('Title'), { target: { value: 'Seven Days of Calm' } });
    fireEvent.change(screen.getByLabelText('Address', { exact: false }), { target: { value: 'seven-days-of-calm' } });
    fireEvent.change(screen.getByLabelText('Short description'), { target: { value: 'A gentle week.' } });
    await screen.findAllByRole('option', { name: 'Just This Breath (free to try)' });
    fireEvent.change(screen.getByLabelText('Day 1'), { target: { value: FREE } });
    fireEvent.change(screen.getByLabelText('Day 2'), { target: { value: PAID } });
    fireEvent.change(screen.getByLabelText(/Reflection prompt for day 1/), { target: { value: 'What did you notice?' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create programme' }));
    await waitFor(() => expect(fetch.mock.calls.some(([, init]) => init?.method === 'POST')).toBe(true));
    const [, init] = fetch.mock.calls.find(([, i]) => i?.method === 'POST') ?? [];
    expect(JSON.parse(init?.body as string)).toEqual({
      slug: 'seven-days-of-calm',
      title: 'Seven Days of Calm',
      description: 'A gentle week.',
      cover: 'mindfulness',
      days: [
        { meditationId: FREE, reflection: 'What did you notice?' },
        { meditationId: PAID, reflection: null },
      ],
    });
    await screen.findByRole('button', { name: 'New programme' });
  });

  it('publishes, moves and deletes (behind a confirmation)', async () => {
    const fetch = answerFetch((url, init) => (init?.method && init.method !== 'GET' ? json(init.method === 'DELETE' ? { deleted: true } : programme(P1, 'Seven Days of Calm', true)) : json({ programmes: [programme(P1, 'Seven Days of Calm', false), programme(P2, 'Sleep Reset', true)] })));
    renderWithQueries(<ProgrammesAdminTab />);
    const list = await screen.findByRole('list', { name: 'Programmes, in the order people see them' });
    fireEvent.click(within(list).getByRole('button', { name: 'Publish Seven Days of Calm' }));
    await waitFor(() => expect(fetch.mock.calls.some(([url, i]) => url.endsWith(`/api/admin/programmes/${P1}/published`) && i?.method === 'PUT')).toBe(true));
    fireEvent.click(await within(list).findByRole('button', { name: 'Move Sleep Reset up' }));
    await waitFor(() => expect(fetch.mock.calls.find(([url]) => url.endsWith('/api/admin/programmes-order'))?.[1]?.body).toBe(JSON.stringify({ ids: [P2, P1] })));
    fireEvent.click(within(list).getByRole('button', { name: 'Delete Sleep Reset' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Delete Sleep Reset?' });
    expect(fetch.mock.calls.some(([, i]) => i?.method === 'DELETE')).toBe(false);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete programme' }));
    await waitFor(() => expect(fetch.mock.calls.some(([url, i]) => url.endsWith(`/api/admin/programmes/${P2}`) && i?.method === 'DELETE')).toBe(true));
  });
});
