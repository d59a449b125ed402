// @vitest-environment jsdom
/**
 * A toast raised while a modal dialog is open waits for it to close (issue 38: 'Journal entry saved
 * successfully' sat over the heading of the 'Keep your recovery key' dialog, on the page the dialog
 * hides from screen readers).
 */
import { afterEach, expect, it, vi } from 'vitest';
import { shown } from '#tests/setup/fake-sonner.ts';

vi.mock('sonner', () => import('#tests/setup/fake-sonner.ts'));
const { toast } = await import('#web/lib/toast.ts');

/** Lets the mutation observer and sonner's (mocked) import run. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

afterEach(() => {
  shown.length = 0;
  document.body.innerHTML = '';
});

it('shows a toast at once when no dialog is open', async () => {
  toast.success('Saved');
  await vi.waitFor(() => expect(shown).toEqual(['success: Saved']), { timeout: 10_000 });
});

it('holds toasts while a modal dialog is open and shows them, in order, once it closes', async () => {
  const dialog = document.createElement('div');
  dialog.setAttribute('role', 'dialog');
  dialog.dataset.state = 'open';
  document.body.append(dialog);

  toast.success('Journal entry saved successfully');
  toast.error('Something else');
  await settle();
  expect(shown).toEqual([]);

  dialog.dataset.state = 'closed';
  // The wait is a chunk of its own (kept out of the first load): loaded, then released.
  await vi.waitFor(() => expect(shown).toEqual(['success: Journal entry saved successfully', 'error: Something else']), { timeout: 10_000 });
});

it('waits for every open dialog (an alert dialog over another) to close', async () => {
  const outer = document.createElement('div');
  outer.setAttribute('role', 'dialog');
  outer.dataset.state = 'open';
  const inner = document.createElement('div');
  inner.setAttribute('role', 'alertdialog');
  inner.dataset.state = 'open';
  document.body.append(outer, inner);

  toast.info('Later');
  inner.remove();
  await settle();
  expect(shown).toEqual([]);
  outer.remove();
  await vi.waitFor(() => expect(shown).toEqual(['info: Later']), { timeout: 10_000 });
});
