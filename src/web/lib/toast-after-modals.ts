/**
 * Where a toast goes (lib/toast.ts says why never over an open modal dialog): with no modal open, on
 * screen at once; otherwise the dialog on top says it itself when it has a place for messages (components/ui/dialog-notices.tsx);
 * otherwise it waits until no modal is open, then shows in the order raised. Its own chunk: only a
 * toast needs it, and it is prefetched at idle with sonner (lazy-chunks.ts).
 */
import type { ExternalToast } from 'sonner';
import type { ReactNode } from 'react';
import type { Kind } from '#web/lib/toast.ts';

/** Radix's open modal dialogs (Dialog, AlertDialog, the full player): each is a role=dialog/alertdialog with data-state=open. */
export const OPEN_MODAL = '[role="dialog"][data-state="open"], [role="alertdialog"][data-state="open"]';

const openModals = (): Element[] => [...document.querySelectorAll(OPEN_MODAL)];

/** A dialog's own place for messages (components/ui/dialog-notices.tsx) listens for this event. */
export const DIALOG_NOTICE_EVENT = 'hm-dialog-notice';
export type DialogNotice = { kind: Kind; message: ReactNode; description?: ReactNode };

type Show = (kind: Kind, message: ReactNode, data?: ExternalToast) => void;

/** Shows the toast at once when no modal dialog is open; otherwise in the dialog, or once it closes. */
export function showUnlessModal(kind: Kind, message: ReactNode, data: ExternalToast | undefined, show: Show): void {
  const modals = openModals();
  if (!modals.length) {
    show(kind, message, data);
    return;
  }
  const place = modals[modals.length - 1].querySelector('[data-dialog-notices]');
  if (place) {
    const description = typeof data?.description === 'function' ? data.description() : data?.description;
    place.dispatchEvent(new CustomEvent<DialogNotice>(DIALOG_NOTICE_EVENT, { detail: { kind, message, description } }));
    return;
  }
  afterModals(() => show(kind, message, data));
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
