// @vitest-environment jsdom
/** The journal's entry forms: what a save sends, and that the form starts again empty only once the entry is saved. */
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, expect, it, vi } from 'vitest';
import { CbtForm, MindfulnessForm } from '#web/features/journal/journal-forms.tsx';

afterEach(cleanup);

it('saves a CBT entry and starts again empty', async () => {
  const onSave = vi.fn(() => Promise.resolve(true));
  render(<CbtForm onSave={onSave} />);
  const thought = screen.getByLabelText<HTMLTextAreaElement>('Thought patterns');
  fireEvent.change(thought, { target: { value: 'a thought' } });
  fireEvent.click(screen.getByRole('button', { name: 'Save entry' }));
  expect(onSave).toHaveBeenCalledWith('cbt', expect.objectContaining({ thoughtPatterns: 'a thought' }));
  await waitFor(() => expect(thought.value).toBe(''));
});

it('keeps a mindfulness entry that was not saved, with the words it opened with', async () => {
  let answer: (saved: boolean) => void = () => undefined;
  const onSave = vi.fn(() => new Promise<boolean>((resolve) => (answer = resolve)));
  render(<MindfulnessForm onSave={onSave} opening="After Morning Light" />);
  const gratitude = screen.getByLabelText<HTMLTextAreaElement>('Gratitude');
  fireEvent.change(gratitude, { target: { value: 'the sea' } });
  fireEvent.click(screen.getByRole('button', { name: 'Save entry' }));
  expect(onSave).toHaveBeenCalledWith('mindfulness', expect.objectContaining({ gratitude: 'the sea', mindfulMoments: 'After Morning Light' }));
  answer(false);
  await waitFor(() => expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Save entry' }).disabled).toBe(false));
  expect(gratitude.value).toBe('the sea');
});
