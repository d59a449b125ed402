/**
 * Setting up the private journal, and unlocking it on a device (issue 18; decision 0031). Set-up
 * says plainly, before anything is chosen, that a forgotten passphrase without the recovery key
 * loses the journal; then shows the recovery key once, with a download, and will not close until
 * the person says they have kept it. Unlocking takes the passphrase, or the recovery key and a new
 * passphrase. Changing the passphrase takes the current one. Every refusal is said inside the dialog.
 */
import ClipboardCopy from 'lucide-react/icons/clipboard-copy';
import Download from 'lucide-react/icons/download';
import KeyRound from 'lucide-react/icons/key-round';
import { useState, type ReactNode, type SubmitEvent } from 'react';
import Fingerprint from 'lucide-react/icons/fingerprint-pattern';
import { JOURNAL_BIOMETRIC_MESSAGES as B, JOURNAL_LOCK_MESSAGES as L } from '#shared/journal-keys.ts';
import { Button } from '#web/components/ui/button.tsx';
import { Dialog } from '#web/components/ui/dialog.tsx';
import { Field, FormProblem } from '#web/components/ui/field.tsx';
import { replaceJournalPassphrase } from '#web/features/journal/journal-access.ts';
import { JournalLockedError } from '#web/features/journal/journal-crypto.ts';
import { NewPassphrase, newPassphraseProblem } from '#web/features/journal/journal-new-passphrase.tsx';
import { RotationNeedsSyncError, type Journal } from '#web/features/journal/use-journal.ts';
import { ApiError } from '#web/lib/api.ts';
import { call } from '#web/lib/call.ts';
import { toast } from '#web/lib/toast.ts';
import type { SavedFile } from '#shared/saved-files.ts';

type Props = { mode: 'set-up' | 'unlock' | 'change' | 'new-recovery'; journal: Journal; onClose: (opened: boolean) => void; /** Opens "Start a new journal" (issue 36, item 3): the way on when both secrets are lost. */ onStartOver: () => void };

const messageOf = (error: unknown) => (error instanceof JournalLockedError || error instanceof ApiError || error instanceof RotationNeedsSyncError ? error.message : 'Something went wrong. Please try again.');

export function JournalKeyDialog({ mode, journal, onClose, onStartOver }: Props) {
  const [recoveryKey, setRecoveryKey] = useState<string | null>(null);
  const [kept, setKept] = useState(false);
  // While the recovery key is on screen, the dialog closes only through its own button, once kept (closable={false}).
  const onOpenChange = (open: boolean) => !open && !recoveryKey && onClose(false);

  if (recoveryKey) {
    return (
      <Dialog open onOpenChange={onOpenChange} title={L.recoveryTitle} description={L.recoveryBody} closable={false}>
        <RecoveryKey value={recoveryKey} />
        <label className="mt-5 flex items-start gap-3 text-sm text-stone-700 dark:text-stone-200">
          <input type="checkbox" className="mt-1 size-4 accent-teal-700" checked={kept} onChange={(event) => setKept(event.target.checked)} />
          {L.recoveryKept}
        </label>
        <div className="mt-6 flex justify-end">
          <Button disabled={!kept} onClick={() => onClose(true)}>
            {L.recoveryDone}
          </Button>
        </div>
      </Dialog>
    );
  }
  if (mode === 'change') return <Change journal={journal} onOpenChange={onOpenChange} onChanged={() => onClose(true)} onRecoveryKey={setRecoveryKey} />;
  if (mode === 'new-recovery') return <NewRecoveryKey journal={journal} onOpenChange={onOpenChange} onRecoveryKey={setRecoveryKey} />;
  return mode === 'set-up' ? <SetUp journal={journal} onOpenChange={onOpenChange} onRecoveryKey={setRecoveryKey} /> : <Unlock journal={journal} onOpenChange={onOpenChange} onOpened={() => onClose(true)} onStartOver={onStartOver} />;
}

/**
 * Every dialog here submits the same way: check the form, then act; a refusal is said in the
 * dialog and the form stays; busy (and not closable) while it runs, and still busy once it succeeded,
 * as the dialog then moves on.
 */
function useDialogAction(check: () => string | null | Promise<string | null>, act: () => Promise<void>) {
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (event?: SubmitEvent<HTMLFormElement>) => {
    event?.preventDefault();
    setBusy(true);
    let invalid: string | null;
    try {
      invalid = await check();
    } catch {
      // The strength scorer could not load (offline before it was cached): said, and the form stays.
      invalid = 'The passphrase could not be checked. Check your connection and try again.';
    }
    if (invalid) {
      setProblem(invalid);
      setBusy(false);
      return;
    }
    setProblem(null);
    try {
      await act();
    } catch (error) {
      setProblem(messageOf(error));
      setBusy(false);
    }
  };
  return { problem, busy, onSubmit: (event?: SubmitEvent<HTMLFormElement>) => void submit(event), clearProblem: () => setProblem(null) };
}

type DialogProps = { title: string; description: string; busy: boolean; onOpenChange: (open: boolean) => void; onSubmit: (event: SubmitEvent<HTMLFormElement>) => void; children: ReactNode };

/** The dialog and its form: closable unless busy, named by its title for assistive technology. */
function FormDialog({ title, description, busy, onOpenChange, onSubmit, children }: DialogProps) {
  return (
    <Dialog open onOpenChange={(open) => !busy && onOpenChange(open)} title={title} description={description}>
      <form onSubmit={onSubmit} className="mt-4 grid gap-4" aria-label={title} noValidate>
        {children}
      </form>
    </Dialog>
  );
}

/**
 * A new passphrase, knowing the current one: the same data key, wrapped anew (decision 0031); or, ticked, a
 * new data key and recovery key as well (a rotation: decision 0061), which shows the new recovery key.
 */
function Change({ journal, onOpenChange, onChanged, onRecoveryKey }: { journal: Journal; onOpenChange: (open: boolean) => void; onChanged: () => void; onRecoveryKey: (key: string) => void }) {
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [repeated, setRepeated] = useState('');
  const [rotate, setRotate] = useState(false);
  const action = useDialogAction(
    () => (current ? newPassphraseProblem(next, repeated) : L.wrongPassphrase),
    async () => {
      if (!journal.accountId) throw new JournalLockedError();
      if (rotate) {
        const recoveryKey = await journal.rotate(current, next);
        toast.success(L.rotated);
        onRecoveryKey(recoveryKey);
        return;
      }
      await replaceJournalPassphrase(journal.accountId, current, next, call);
      // A new passphrase turns Face ID / fingerprint off on this device (decision 0065).
      journal.biometric.recheck();
      toast.success(L.changed);
      onChanged();
    },
  );
  return (
    <FormDialog title={L.changeTitle} description={L.changeBody} busy={action.busy} onOpenChange={onOpenChange} onSubmit={action.onSubmit}>
      <Field label={L.currentPassphraseLabel} type="password" secret="passphrase" autoComplete="current-password" maxLength={256} value={current} onChange={(event) => setCurrent(event.target.value)} />
      <NewPassphrase label={L.newPassphraseLabel} value={next} repeated={repeated} onChange={setNext} onRepeated={setRepeated} />
      <label className="flex items-start gap-3 text-sm text-stone-700 dark:text-stone-200">
        <input type="checkbox" className="mt-1 size-4 accent-teal-700" checked={rotate} onChange={(event) => setRotate(event.target.checked)} aria-describedby="journal-rotate-hint" />
        <span>
          {L.rotateLabel}
          <span id="journal-rotate-hint" className="mt-1 block text-stone-500 dark:text-stone-400">
            {L.rotateHint}
          </span>
        </span>
      </label>
      <SubmitRow problem={action.problem} busy={action.busy} label={L.changeSubmit} busyLabel={L.unlocking} />
    </FormDialog>
  );
}

/** "New recovery key" (decision 0061): a rotation that keeps the passphrase; the old recovery key stops working. */
function NewRecoveryKey({ journal, onOpenChange, onRecoveryKey }: { journal: Journal; onOpenChange: (open: boolean) => void; onRecoveryKey: (key: string) => void }) {
  const [current, setCurrent] = useState('');
  const action = useDialogAction(
    () => (current ? null : L.wrongPassphrase),
    async () => onRecoveryKey(await journal.rotate(current, current)),
  );
  return (
    <FormDialog title={L.newRecoveryTitle} description={L.newRecoveryBody} busy={action.busy} onOpenChange={onOpenChange} onSubmit={action.onSubmit}>
      <Field label={L.currentPassphraseLabel} type="password" secret="passphrase" autoComplete="current-password" maxLength={256} value={current} onChange={(event) => setCurrent(event.target.value)} />
      <SubmitRow problem={action.problem} busy={action.busy} label={L.newRecoverySubmit} busyLabel={L.unlocking} />
    </FormDialog>
  );
}

function SetUp({ journal, onOpenChange, onRecoveryKey }: { journal: Journal; onOpenChange: (open: boolean) => void; onRecoveryKey: (key: string) => void }) {
  const [passphrase, setPassphrase] = useState('');
  const [repeated, setRepeated] = useState('');
  const [understood, setUnderstood] = useState(false);
  const action = useDialogAction(
    () => newPassphraseProblem(passphrase, repeated),
    async () => onRecoveryKey(await journal.setUp(passphrase)),
  );
  return (
    <FormDialog title={L.setUpTitle} description={L.setUpBody} busy={action.busy} onOpenChange={onOpenChange} onSubmit={action.onSubmit}>
      <p className="rounded-2xl bg-amber-50 px-4 py-3 text-sm text-amber-950 ring-1 ring-amber-200 dark:bg-amber-950/30 dark:text-amber-100 dark:ring-amber-900">{L.setUpWarning}</p>
      <NewPassphrase label={L.passphraseLabel} value={passphrase} repeated={repeated} onChange={setPassphrase} onRepeated={setRepeated} />
      <label className="flex items-start gap-3 text-sm text-stone-700 dark:text-stone-200">
        <input type="checkbox" className="mt-1 size-4 accent-teal-700" checked={understood} onChange={(event) => setUnderstood(event.target.checked)} />
        {L.setUpUnderstood}
      </label>
      <SubmitRow problem={action.problem} busy={action.busy} blocked={!understood} label={L.setUpButton} busyLabel={L.settingUp} />
    </FormDialog>
  );
}

function Unlock({ journal, onOpenChange, onOpened, onStartOver }: { journal: Journal; onOpenChange: (open: boolean) => void; onOpened: () => void; onStartOver: () => void }) {
  const [recovering, setRecovering] = useState(false);
  const [passphrase, setPassphrase] = useState('');
  const [recoveryKey, setRecoveryKey] = useState('');
  const [repeated, setRepeated] = useState('');
  const [rememberBiometric, setRememberBiometric] = useState(false);
  const action = useDialogAction(
    () => (recovering ? newPassphraseProblem(passphrase, repeated) : passphrase ? null : L.wrongPassphrase),
    async () => {
      await journal.unlock(recovering ? { recoveryKey, newPassphrase: passphrase } : { passphrase, rememberBiometric });
      onOpened();
    },
  );
  // Inside the apps (decision 0065): Face ID / fingerprint as the way in once turned on; offered, off, until then.
  const { enrolled, available } = journal.biometric;
  const biometricAction = useDialogAction(
    () => null,
    async () => {
      await journal.biometric.unlock();
      onOpened();
    },
  );
  const title = recovering ? L.recoverTitle : L.unlockTitle;
  return (
    <FormDialog title={title} description={recovering ? L.recoverBody : L.unlockBody} busy={action.busy || biometricAction.busy} onOpenChange={onOpenChange} onSubmit={action.onSubmit}>
      {enrolled && !recovering ? (
        <>
          <Button type="button" variant="outline" disabled={biometricAction.busy || action.busy} aria-busy={biometricAction.busy} onClick={() => biometricAction.onSubmit(undefined)}>
            <Fingerprint className="size-4" aria-hidden /> {B.unlockWith(enrolled)}
          </Button>
          <FormProblem>{biometricAction.problem}</FormProblem>
        </>
      ) : null}
      {recovering ? (
        <>
          <Field label={L.recoveryKeyLabel} autoComplete="off" autoCapitalize="characters" spellCheck={false} maxLength={120} value={recoveryKey} onChange={(event) => setRecoveryKey(event.target.value)} />
          <NewPassphrase label={L.newPassphraseLabel} value={passphrase} repeated={repeated} onChange={setPassphrase} onRepeated={setRepeated} />
        </>
      ) : (
        // eslint-disable-next-line jsx-a11y/no-autofocus -- the dialog exists to take this one answer
        <Field label={L.passphraseLabel} type="password" secret="passphrase" autoComplete="current-password" maxLength={256} value={passphrase} onChange={(event) => setPassphrase(event.target.value)} autoFocus />
      )}
      {available && !enrolled && !recovering ? (
        <label className="flex items-start gap-3 text-sm text-stone-700 dark:text-stone-200">
          <input type="checkbox" className="mt-1 size-4 accent-teal-700" checked={rememberBiometric} onChange={(event) => setRememberBiometric(event.target.checked)} aria-describedby="journal-biometric-hint" />
          <span>
            {B.offer(available)}
            <span id="journal-biometric-hint" className="mt-1 block text-stone-500 dark:text-stone-400">
              {B.offerHint}
            </span>
          </span>
        </label>
      ) : null}
      <FormProblem>{action.problem}</FormProblem>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <Button
          variant="ghost"
          size="sm"
          onClick={() => {
            setRecovering((r) => !r);
            action.clearProblem();
            setPassphrase('');
          }}
        >
          {recovering ? L.usePassphrase : L.forgot}
        </Button>
        <Button type="submit" disabled={action.busy} aria-busy={action.busy}>
          {action.busy ? L.unlocking : recovering ? L.recoverButton : L.unlockButton}
        </Button>
      </div>
      {/* Lost the recovery key too: the one way on is a new journal (issue 36, item 3). */}
      {recovering ? (
        <Button variant="ghost" size="sm" className="justify-self-start text-rose-800 dark:text-rose-200" onClick={onStartOver}>
          {L.resetButton}
        </Button>
      ) : null}
    </FormDialog>
  );
}

function RecoveryKey({ value }: { value: string }) {
  // How the last save ended, said here beside the key (inside the apps the share sheet can be closed
  // without a choice: the key must not look kept when it went nowhere; issue 35, item 5).
  const [saved, setSaved] = useState<SavedFile | null>(null);
  const [saving, setSaving] = useState(false);
  const save = async () => {
    setSaving(true);
    setSaved(null);
    // Loaded at the tap, not with the dialog (web: the download; apps: the share sheet).
    const asked = import('#web/platform/save-file.ts').then(({ saveFile }) => saveFile('harbour-mind-journal-recovery-key.txt', 'text/plain', recoveryKeyFile(value)));
    setSaved(await asked.catch((error: unknown): SavedFile => ({ outcome: 'failed', message: error instanceof Error ? error.message : String(error) })));
    setSaving(false);
  };
  return (
    <div className="mt-4 rounded-2xl bg-stone-100 p-4 dark:bg-stone-800">
      <p className="flex items-center gap-2 text-sm font-semibold text-stone-700 dark:text-stone-200">
        <KeyRound className="size-4" aria-hidden /> {L.recoveryKeyLabel}
      </p>
      <p data-testid="recovery-key" className="mt-2 font-mono text-base break-words text-stone-900 select-all dark:text-stone-50">
        {value}
      </p>
      <div className="mt-3 flex flex-wrap gap-2">
        <Button size="sm" variant="outline" disabled={saving} aria-busy={saving} onClick={() => void save()}>
          <Download className="size-4" aria-hidden /> {L.recoveryDownload}
        </Button>
        <Button
          size="sm"
          variant="ghost"
          onClick={() =>
            void navigator.clipboard.writeText(value).then(
              () => toast.success('Recovery key copied'),
              () => toast.error('Could not copy: select the key and copy it yourself.'),
            )
          }
        >
          <ClipboardCopy className="size-4" aria-hidden /> Copy
        </Button>
      </div>
      {saved?.message ? (
        saved.outcome === 'shared' ? (
          <p role="status" className="mt-3 text-sm text-teal-800 dark:text-teal-200">
            {saved.message}
          </p>
        ) : (
          <p role="alert" className="mt-3 text-sm text-rose-800 dark:text-rose-200">
            {saved.message} {L.recoveryNotKept}
          </p>
        )
      ) : null}
    </div>
  );
}

function recoveryKeyFile(key: string): string {
  return ['Harbour Mind: journal recovery key', '', key, '', 'This key opens your journal if you forget your passphrase.', 'Keep it somewhere safe, away from the devices you use. Anyone with this key and your account can read your journal.', ''].join('\n');
}

/** The dialog's refusal, if any, and its submit button: `busyLabel` while it works, held back while `blocked`. */
function SubmitRow({ problem, busy, blocked = false, label, busyLabel }: { problem: ReactNode; busy: boolean; blocked?: boolean; label: string; busyLabel: string }) {
  return (
    <>
      <FormProblem>{problem}</FormProblem>
      <div className="flex justify-end">
        <Button type="submit" disabled={blocked || busy} aria-busy={busy}>
          {busy ? busyLabel : label}
        </Button>
      </div>
    </>
  );
}

