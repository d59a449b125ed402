/**
 * "Start a new journal" (issue 36, item 3): for someone who lost both the passphrase and the recovery
 * key, or wants a clean start. It says plainly that every entry is gone for good, asks for the word
 * typed (the server checks it too), then deletes the keyring and records on the server and this device.
 */
import { useState, type SubmitEvent } from 'react';
import { JOURNAL_LOCK_MESSAGES as L, JOURNAL_RESET_WORD } from '#shared/journal-keys.ts';
import { Button } from '#web/components/ui/button.tsx';
import { Dialog } from '#web/components/ui/dialog.tsx';
import { Field } from '#web/components/ui/field.tsx';
import { ApiError } from '#web/lib/api.ts';

type Props = { onReset: () => Promise<void>; onClose: (reset: boolean) => void };

export function JournalResetDialog({ onReset, onClose }: Props) {
  const [word, setWord] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (word !== JOURNAL_RESET_WORD) {
      setProblem(L.resetWordWrong);
      return;
    }
    setBusy(true);
    setProblem(null);
    try {
      await onReset();
      onClose(true);
    } catch (error) {
      setProblem(error instanceof ApiError ? error.message : 'Something went wrong. Please try again.');
      setBusy(false);
    }
  };
  return (
    <Dialog open onOpenChange={(open) => !open && !busy && onClose(false)} title={L.resetTitle} description={L.resetBody}>
      <form onSubmit={(event) => void submit(event)} className="mt-4 grid gap-4" aria-label={L.resetTitle} noValidate>
        <Field label={L.resetWordLabel} autoComplete="off" autoCapitalize="characters" spellCheck={false} maxLength={20} value={word} onChange={(event) => setWord(event.target.value)} error={problem ?? undefined} />
        <div className="flex justify-end">
          <Button type="submit" disabled={busy} aria-busy={busy} className="bg-rose-700 hover:bg-rose-800 dark:bg-rose-400 dark:hover:bg-rose-300">
            {L.resetSubmit}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
