// @vitest-environment jsdom
/**
 * A card that cannot play offline says why and opens no player (issue 38, item 5: every card looked
 * playable offline, and a tap opened a player that said "Unable to reach Harbour Mind").
 */
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { MeditationCard as Card } from '#shared/contracts/catalogue.ts';
import { MeditationCard } from '#web/features/catalogue/meditation-card.tsx';

const meditation: Card = { id: 'm1', title: 'The Slow Tide', description: 'Waves.', duration: '10 min', durationSeconds: 600, category: 'sleeping', categories: ['sleeping'], tags: [], hasTranscript: false, free: false, createdAt: '2026-01-01T00:00:00.000Z' };

afterEach(cleanup);

describe('MeditationCard', () => {
  it('plays when tapped while it can', () => {
    const onSelect = vi.fn();
    render(<MeditationCard meditation={meditation} locked={false} onSelect={onSelect} saved={false} onToggleFavourite={() => undefined} />);
    fireEvent.click(screen.getByRole('button', { name: 'The Slow Tide' }));
    expect(onSelect).toHaveBeenCalledWith(meditation);
  });

  it('greyed with its reason, says it in the button’s description, and a tap does nothing', () => {
    const onSelect = vi.fn();
    render(<MeditationCard meditation={meditation} locked={false} onSelect={onSelect} saved={false} onToggleFavourite={() => undefined} unavailable="Needs a connection" extra={<span>Downloaded</span>} />);
    const title = screen.getByRole('button', { name: 'The Slow Tide' });
    expect(title.getAttribute('aria-disabled')).toBe('true');
    expect(document.getElementById(title.getAttribute('aria-describedby')!)?.textContent).toContain('Needs a connection');
    fireEvent.click(title);
    expect(onSelect).not.toHaveBeenCalled();
    expect(screen.getByTestId('meditation-card').hasAttribute('data-unavailable')).toBe(true);
    expect(screen.getByText('Downloaded')).toBeTruthy();
  });
});
