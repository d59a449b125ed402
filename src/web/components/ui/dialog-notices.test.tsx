// @vitest-environment jsdom
/**
 * No toast over an open dialog (issue 38): a message raised while a dialog is open is said in the
 * dialog; when the dialog closes within a toast's life of it, the rest of that life is a toast.
 */
import { act, cleanup, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, expect, it, vi } from 'vitest';
import { TOAST_DURATION_MS } from '#shared/constants.ts';
import { Dialog } from '#web/components/ui/dialog.tsx';
import { toast } from '#web/lib/toast.ts';
import { shown as toasts } from '#tests/setup/fake-sonner.ts';

vi.mock('sonner', () => import('#tests/setup/fake-sonner.ts'));

const settle = () => act(() => new Promise((resolve) => setTimeout(resolve, 0)));

afterEach(async () => {
  cleanup();
  // A dialog unmounted here hands its recent messages on (sonner loads them a moment later).
  await new Promise((resolve) => setTimeout(resolve, 0));
  toasts.length = 0;
});

function Harness() {
  const [open, setOpen] = useState(true);
  return (
    <Dialog open={open} onOpenChange={setOpen} title="Keep your recovery key">
      <button type="button" onClick={() => toast.success('Recovery key copied')}>
        Copy
      </button>
      <button type="button" onClick={() => toast.error('Could not copy')}>
        Fail
      </button>
      <button
        type="button"
        onClick={() => {
          setOpen(false);
          toast.success('Subscription cancelled');
        }}
      >
        Yes, cancel
      </button>
    </Dialog>
  );
}

it('says a message raised while the dialog is open inside it (errors as an alert), not in a toast', async () => {
  render(<Harness />);
  act(() => screen.getByRole('button', { name: 'Copy' }).click());
  act(() => screen.getByRole('button', { name: 'Fail' }).click());
  await settle();
  const dialog = screen.getByRole('dialog', { name: 'Keep your recovery key' });
  expect(dialog.querySelector('[role="status"]')?.textContent).toBe('Recovery key copied');
  expect(dialog.querySelector('[role="alert"]')?.textContent).toBe('Could not copy');
  expect(toasts).toEqual([]);
});

it('hands messages still within a toast’s life on to toasts when the dialog closes, once', async () => {
  render(<Harness />);
  act(() => screen.getByRole('button', { name: 'Copy' }).click());
  act(() => screen.getByRole('button', { name: 'Yes, cancel' }).click());
  await settle();
  expect(screen.queryByRole('dialog')).toBeNull();
  // The copy a moment ago too: it would still be on screen as a toast.
  expect(toasts).toEqual(['success: Recovery key copied', 'success: Subscription cancelled']);
});

it('hands on nothing said longer ago than a toast lives', async () => {
  const now = vi.spyOn(Date, 'now');
  now.mockReturnValue(1_000_000);
  render(<Harness />);
  act(() => screen.getByRole('button', { name: 'Copy' }).click());
  await settle();
  now.mockReturnValue(1_000_000 + TOAST_DURATION_MS);
  act(() => screen.getByRole('button', { name: 'Yes, cancel' }).click());
  await settle();
  // Only the message raised as it closed.
  expect(toasts).toEqual(['success: Subscription cancelled']);
  now.mockRestore();
});
