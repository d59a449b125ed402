/** A catalogue card as the web app receives it, for web unit tests; anything given replaces the defaults. */
import type { MeditationCard } from '#shared/contracts/catalogue.ts';

export const meditationCard = (id: string, overrides: Partial<MeditationCard> = {}): MeditationCard => ({
  id,
  title: `Track ${id}`,
  description: 'desc',
  duration: '2 min',
  durationSeconds: 120,
  category: 'sleeping',
  categories: ['sleeping'],
  tags: [],
  hasTranscript: false,
  free: false,
  createdAt: '2026-01-01T00:00:00.000Z',
  ...overrides,
});
