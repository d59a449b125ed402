/** A destructive-action confirmation on Radix AlertDialog (focus on Cancel, Escape cancels). */
import { AlertDialog } from 'radix-ui';
import { buttonClasses } from '#web/components/ui/button.tsx';
import { overlayClass, panelClass, titleClass, type DialogState } from '#web/components/ui/dialog.tsx';
import { useReturnFocus } from '#web/components/ui/return-focus.ts';

export function ConfirmDialog({
  open,
  onOpenChange,
  title,
  description,
  confirmLabel,
  cancelLabel = 'Cancel',
  onConfirm,
}: DialogState & { title: string; description: string; confirmLabel: string; cancelLabel?: string; onConfirm: () => void }) {
  // Radix focuses Cancel as it opens; on closing, focus goes back to what opened it.
  const focus = useReturnFocus();
  return (
    <AlertDialog.Root open={open} onOpenChange={onOpenChange}>
      <AlertDialog.Portal>
        <AlertDialog.Overlay className={overlayClass} />
        <AlertDialog.Content className={panelClass} {...focus}>
          <AlertDialog.Title className={titleClass}>{title}</AlertDialog.Title>
          <AlertDialog.Description className="mt-3 text-stone-600 dark:text-stone-300">{description}</AlertDialog.Description>
          <div className="mt-6 flex justify-end gap-3">
            <AlertDialog.Cancel className={buttonClasses({ variant: 'outline' })}>{cancelLabel}</AlertDialog.Cancel>
            <AlertDialog.Action className={buttonClasses({ className: 'bg-rose-700 hover:bg-rose-800 dark:bg-rose-400 dark:hover:bg-rose-300' })} onClick={onConfirm}>
              {confirmLabel}
            </AlertDialog.Action>
          </div>
        </AlertDialog.Content>
      </AlertDialog.Portal>
    </AlertDialog.Root>
  );
}

/**
 * The confirmation of an action on one thing chosen from a list (a link to revoke, a favourite to
 * remove): open while there is a `subject`; closing it calls `onClose` (which clears the subject), and
 * confirming hands the subject to `onConfirm`.
 */
export function ConfirmDialogFor<T>({
  subject,
  onClose,
  onConfirm,
  ...words
}: { subject: T | null; onClose: () => void; onConfirm: (subject: T) => void; title: string; description: string; confirmLabel: string; cancelLabel?: string }) {
  return (
    <ConfirmDialog
      open={subject !== null}
      onOpenChange={(open) => !open && onClose()}
      onConfirm={() => {
        if (subject !== null) onConfirm(subject);
      }}
      {...words}
    />
  );
}
