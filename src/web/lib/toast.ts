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

type Kind = 'success' | 'error' | 'info' | 'warning';
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

/** Radix's open modal dialogs (Dialog, AlertDialog, the full player): each is a role=dialog/alertdialog with data-state=open. */
const OPEN_MODAL = '[role="dialog"][data-state="open"], [role="alertdialog"][data-state="open"]';

/** A dialog's own place for messages (components/ui/dialog-notices.tsx) listens for this event. */
export const DIALOG_NOTICE_EVENT = 'hm-dialog-notice';
export type DialogNotice = { kind: Kind; message: ReactNode; description?: ReactNode };

function openModals(): Element[] {
  return typeof document === 'undefined' ? [] : [...document.querySelectorAll(OPEN_MODAL)];
}

let held: (() => void)[] = [];

/** Runs `show` once no modal dialog is open (in the order the toasts were raised). */
function afterModals(show: () => void): void {
  held.push(show);
  if (held.length > 1) return;
  const observer = new MutationObserver(() => {
    if (openModals().length) return;
    observer.disconnect();
    const waiting = held;
    held = [];
    for (const run of waiting) run();
  });
  // Dialogs are portalled into <body> and removed when closed; their data-state flips first.
  observer.observe(document.body, { childList: true, subtree: true, attributes: true, attributeFilter: ['data-state'] });
}

function show(kind: Kind, message: ReactNode, data?: ExternalToast): void {
  wantToaster();
  const modals = openModals();
  if (!modals.length) {
    showNow(kind, message, data);
    return;
  }
  // The dialog on top shows it in itself when it has a place for messages; otherwise it waits.
  const place = modals[modals.length - 1].querySelector('[data-dialog-notices]');
  if (place) {
    const description = typeof data?.description === 'function' ? data.description() : data?.description;
    place.dispatchEvent(new CustomEvent<DialogNotice>(DIALOG_NOTICE_EVENT, { detail: { kind, message, description } }));
    return;
  }
  afterModals(() => showNow(kind, message, data));
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
