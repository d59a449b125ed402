import { useNavigate } from 'react-router';
import { MESSAGES } from '#shared/messages.ts';
import { Button } from '#web/components/ui/button.tsx';
import { Dialog } from '#web/components/ui/dialog.tsx';

/** Shown when a visitor without a subscription taps a meditation. */
export function SubscribeDialog({ open, onOpenChange, title }: { open: boolean; onOpenChange: (open: boolean) => void; title?: string }) {
  const navigate = useNavigate();
  return (
    <Dialog open={open} onOpenChange={onOpenChange} title={title ?? 'Subscribe to listen'} description={MESSAGES.catalogue.subscribeDialogBody}>
      <div className="mt-6 flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
        <Button variant="outline" onClick={() => onOpenChange(false)}>
          {MESSAGES.catalogue.maybeLater}
        </Button>
        <Button
          onClick={() => {
            onOpenChange(false);
            void navigate('/subscribe');
          }}
        >
          {MESSAGES.catalogue.subscribeToContinue}
        </Button>
      </div>
    </Dialog>
  );
}
