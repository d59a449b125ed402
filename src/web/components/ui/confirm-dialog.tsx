/** A destructive-action confirmation on Radix AlertDialog (focus on Cancel, Escape cancels). */
import { AlertDialog } from 'radix-ui';
import { buttonClasses } from '#web/components/ui/button.tsx';

export function ConfirmDialog({
  open,
  onOpenChange,
  title,
  description,
  confirmLabel,
  cancelLabel = 'Cancel',
  onConfirm,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  description: string;
  confirmLabel: string;
  cancelLabel?: string;
  onConfirm: () => void;
}) {
  return (
    <AlertDialog.Root open={open} onOpenChange={onOpenChange}>
      <AlertDialog.Portal>
        <AlertDialog.Overlay className="fixed inset-0 z-50 bg-stone-950/50 backdrop-blur-sm" />
        <AlertDialog.Content className="fixed left-1/2 top-1/2 z-50 w-[calc(100vw-2rem)] max-w-md -translate-x-1/2 -translate-y-1/2 rounded-3xl bg-white p-6 shadow-2xl ring-1 ring-stone-200 sm:p-8 dark:bg-stone-900 dark:ring-stone-800">
          <AlertDialog.Title className="font-serif text-2xl font-semibold text-stone-900 dark:text-stone-50">{title}</AlertDialog.Title>
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
