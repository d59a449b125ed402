/**
 * Toasts without sonner in the first download: the same calls as sonner's `toast` (success, error,
 * info, warning), which load sonner on first use (it is also prefetched once the page is idle) and
 * ask the layout to mount its <Toaster>. Sonner replays toasts raised before its Toaster
 * subscribed, so nothing is lost while either arrives.
 *
 * No toast over an open modal dialog (issue 38: 'Journal entry saved successfully' sat over the
 * heading of the 'Keep your recovery key' dialog). The page behind a modal is dimmed and hidden from
 * screen readers, so a toast there is neither readable nor heard: the message is shown in the dialog
 * itself when it has a place for messages (the general dialog and the full player do), and otherwise
 * waits until the dialog closes.
 */
import type { ExternalToast } from 'sonner';
import type { ReactNode } from 'react';
import { loadOnce } from '#web/lib/idle.ts';

export const loadSonner = loadOnce(() => import('sonner'));

export type Kind = 'success' | 'error' | 'info' | 'warning';
let wanted = false;
const listeners = new Set<() => void>();

/** Mounts the Toaster (see components/ui/toaster.tsx): on the first toast, or once the page is idle. */
export function wantToaster(): void {
  if (wanted) return;
  wanted = true;
  for (const listener of listeners) listener();
}

export const toasterStore = {
  subscribe: (listener: () => void): (() => void) => {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
  isWanted: (): boolean => wanted,
};

/** What a toast does while a modal dialog is open (see above): its own small chunk, loaded with sonner (prefetched at idle). */
export const loadAfterModals = loadOnce(() => import('#web/lib/toast-after-modals.ts'));

function show(kind: Kind, message: ReactNode, data?: ExternalToast): void {
  wantToaster();
  void loadAfterModals().then(
    ({ showUnlessModal }) => showUnlessModal(kind, message, data, showNow),
    // Offline before the chunk ever loaded: shown as sonner can (which says in the console when it cannot).
    () => showNow(kind, message, data),
  );
}

function showNow(kind: Kind, message: ReactNode, data?: ExternalToast): void {
  loadSonner().then(
    ({ toast }) => toast[kind](message, data),
    // Offline before sonner ever loaded: the message cannot be shown; keep it in the console.
    (error: unknown) => console.warn(`toast (${kind}) not shown`, message, error),
  );
}

/** sonner's `toast.success/error/info/warning`, loading sonner on demand. */
export const toast = {
  success: (message: ReactNode, data?: ExternalToast) => show('success', message, data),
  error: (message: ReactNode, data?: ExternalToast) => show('error', message, data),
  info: (message: ReactNode, data?: ExternalToast) => show('info', message, data),
  warning: (message: ReactNode, data?: ExternalToast) => show('warning', message, data),
};
