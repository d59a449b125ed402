/** Accessible modal dialog on Radix: focus trap, Escape to close, labelled title and description. */
import { Dialog as RadixDialog } from 'radix-ui';
import X from 'lucide-react/icons/x';
import type { ReactNode } from 'react';
import { DialogNotices } from '#web/components/ui/dialog-notices.tsx';
import { firstControl, useReturnFocus } from '#web/components/ui/return-focus.ts';

/** Every dialog is controlled by its opener. */
export type DialogState = { open: boolean; onOpenChange: (open: boolean) => void };

export const overlayClass = 'fixed inset-0 z-50 bg-stone-950/50 backdrop-blur-sm';
/** The centred card both dialogs use (the confirmation adds nothing; the general one may scroll). */
export const panelClass =
  'fixed left-1/2 top-1/2 z-50 w-[calc(100vw-2rem)] max-w-md -translate-x-1/2 -translate-y-1/2 rounded-3xl bg-white p-6 shadow-2xl ring-1 ring-stone-200 sm:p-8 dark:bg-stone-900 dark:ring-stone-800';
export const titleClass = 'font-serif text-2xl font-semibold text-stone-900 dark:text-stone-50';

export function Dialog({
  open,
  onOpenChange,
  title,
  description,
  children,
  closable = true,
}: DialogState & {
  title: string;
  description?: ReactNode;
  children?: ReactNode;
  /** False while the dialog must be finished through its own buttons (no close button; Escape and outside clicks do nothing). */
  closable?: boolean;
}) {
  // Opens on its first control (not the close button), and gives focus back to its opener.
  const focus = useReturnFocus((content) => firstControl(content, '[data-dialog-close]'));
  return (
    <RadixDialog.Root open={open} onOpenChange={onOpenChange}>
      <RadixDialog.Portal>
        <RadixDialog.Overlay className={`${overlayClass} data-[state=open]:animate-in`} />
        <RadixDialog.Content
          className={`${panelClass} max-h-[calc(100dvh-2rem)] overflow-y-auto focus:outline-none`}
          onEscapeKeyDown={closable ? undefined : (event) => event.preventDefault()}
          onInteractOutside={closable ? undefined : (event) => event.preventDefault()}
          {...focus}
        >
          {/* First in reading and Tab order, as it is seen: at the top (issue 38: it came last). */}
          {closable ? (
            <RadixDialog.Close
              data-dialog-close=""
              className="absolute right-4 top-4 rounded-full p-2 text-stone-500 dark:text-stone-400 hover:bg-stone-100 hover:text-stone-800 dark:hover:bg-stone-800 dark:hover:text-stone-100"
              aria-label="Close"
            >
              <X className="size-5" aria-hidden />
            </RadixDialog.Close>
          ) : null}
          <RadixDialog.Title className={`pr-8 ${titleClass}`}>{title}</RadixDialog.Title>
          {description ? (
            <RadixDialog.Description className="mt-3 leading-relaxed text-stone-600 dark:text-stone-300">{description}</RadixDialog.Description>
          ) : null}
          <DialogNotices open={open} className="mt-4" />
          {children}
        </RadixDialog.Content>
      </RadixDialog.Portal>
    </RadixDialog.Root>
  );
}
