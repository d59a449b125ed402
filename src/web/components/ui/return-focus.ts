/**
 * Focus back to what opened a dialog when it closes (issue 38: after Escape, or closing the paywall,
 * the cancel dialog, the recovery-key dialog or the full player, focus fell to <body>). Our dialogs
 * are controlled and have no Radix Trigger, whose element Radix would focus; so the element that
 * had focus as the dialog opened is kept and focused again. When it can no longer take focus
 * (gone, hidden, disabled), the nearest control in its section does, else the page's main landmark.
 */
import { useRef } from 'react';
import { OPEN_MODAL } from '#web/lib/toast-after-modals.ts';

type AutoFocusHandlers = { onOpenAutoFocus: (event: Event) => void; onCloseAutoFocus: (event: Event) => void };

const CONTROLS = 'a[href], button:not([disabled]), input:not([disabled]):not([type="hidden"]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

function tryFocus(element: HTMLElement | null | undefined): boolean {
  if (!element?.isConnected) return false;
  element.focus({ preventScroll: true });
  return document.activeElement === element;
}

/** The first control in `container` that can take focus, leaving out those matching `except`. */
export function firstControl(container: HTMLElement, except?: string): HTMLElement | null {
  for (const control of container.querySelectorAll<HTMLElement>(CONTROLS)) {
    if (except && control.matches(except)) continue;
    // Roving focus (tabs, radio groups) leaves its other items out of the Tab order: so do we.
    if (control.getAttribute('tabindex') === '-1') continue;
    // Rendered and shown (a closed <details> or a hidden tab panel hides its controls).
    if (control.getClientRects().length === 0) continue;
    return control;
  }
  return null;
}

/** The opener, or where focus should go in its place. */
function refocus(opener: HTMLElement | null): void {
  if (tryFocus(opener)) return;
  const section = opener?.isConnected ? opener.closest('form, section, [role="region"], [role="tabpanel"]') : null;
  if (section instanceof HTMLElement && tryFocus(firstControl(section))) return;
  tryFocus(document.getElementById('main'));
}

/**
 * A dialog that gives way to another (the journal's set-up to 'Keep your recovery key') hands its
 * opener on: the next one opened with nothing focused, and gives focus back to that opener.
 */
let handedOn: HTMLElement | null = null;


/**
 * Handlers for Radix's Dialog/AlertDialog Content. `initialFocus` picks what takes focus as the dialog
 * opens (Radix's first focusable element otherwise).
 */
export function useReturnFocus(initialFocus?: (content: HTMLElement) => HTMLElement | null): AutoFocusHandlers {
  const opener = useRef<HTMLElement | null>(null);
  return {
    onOpenAutoFocus: (event) => {
      // Radix asks before it moves focus: what has focus now is what opened the dialog.
      const active = document.activeElement;
      opener.current = active instanceof HTMLElement && active !== document.body && active.isConnected ? active : null;
      if (opener.current) handedOn = null;
      const target = initialFocus?.(event.currentTarget as HTMLElement);
      if (target) {
        event.preventDefault();
        target.focus();
      }
    },
    onCloseAutoFocus: (event) => {
      event.preventDefault();
      const target = opener.current ?? handedOn;
      opener.current = null;
      handedOn = null;
      // Another dialog took its place: it keeps focus, and returns it to this opener when it closes
      // (a dialog opened from inside that one, a confirmation, gives focus back there as usual).
      const open = [...document.querySelectorAll(OPEN_MODAL)];
      if (open.length && !open.some((dialog) => target && dialog.contains(target))) handedOn = target;
      else refocus(target);
    },
  };
}
