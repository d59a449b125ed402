/**
 * Toasts without sonner in the first download: the same calls as sonner's `toast` (success, error,
 * info, warning), which load sonner on first use (it is also prefetched once the page is idle) and
 * ask the layout to mount its <Toaster>. Sonner replays toasts raised before its Toaster
 * subscribed, so nothing is lost while either arrives.
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

function show(kind: Kind, message: ReactNode, data?: ExternalToast): void {
  wantToaster();
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
