/**
 * A new journal passphrase and its repetition (set-up, recovery, change and rotation all ask for the pair),
 * with its strength as zxcvbn scores it and the plain warning not to reuse the account password (issue 36,
 * item 2; decision 0061). The warning is always in sight: nothing can compare the passphrase with the account
 * password, which only the server ever sees (as a hash).
 */
import { useEffect, useState } from 'react';
import { JOURNAL_LOCK_MESSAGES as L, JOURNAL_PASSPHRASE_MIN } from '#shared/journal-keys.ts';
import { Field } from '#web/components/ui/field.tsx';
import { passphraseProblem } from '#web/features/journal/journal-access.ts';

/**
 * The form's check of a new passphrase: length, then strength (the scorer loads on first use), then the
 * repetition. Returns the problem to say, or null.
 */
export async function newPassphraseProblem(passphrase: string, repeated: string): Promise<string | null> {
  if (passphrase.length < JOURNAL_PASSPHRASE_MIN) return L.passphraseShort;
  const { passphraseScore } = await import('#web/features/journal/journal-strength.ts');
  return passphraseProblem(passphrase, repeated, await passphraseScore(passphrase));
}

/** zxcvbn's score for what is typed, once the scorer has loaded; null while it loads or the field is empty. */
function useScore(passphrase: string): number | null {
  const [scored, setScored] = useState<{ text: string; score: number } | null>(null);
  useEffect(() => {
    if (!passphrase) return;
    let current = true;
    void import('#web/features/journal/journal-strength.ts')
      .then(({ passphraseScore }) => passphraseScore(passphrase))
      .then((score) => current && setScored({ text: passphrase, score }))
      // The meter stays quiet if the scorer cannot load (offline, not yet cached); the check on saving says why.
      .catch(() => undefined);
    return () => {
      current = false;
    };
  }, [passphrase]);
  return passphrase && scored?.text === passphrase ? scored.score : null;
}

const BAR = ['bg-rose-600', 'bg-rose-500', 'bg-amber-500', 'bg-teal-600', 'bg-teal-700'];

export function NewPassphrase({ label, value, repeated, onChange, onRepeated }: { label: string; value: string; repeated: string; onChange: (value: string) => void; onRepeated: (value: string) => void }) {
  const score = useScore(value);
  return (
    <>
      <p className="rounded-2xl bg-stone-100 px-4 py-3 text-sm text-stone-700 dark:bg-stone-800 dark:text-stone-200">
        {L.reusedWarning}
      </p>
      <Field label={label} type="password" secret="passphrase" autoComplete="new-password" maxLength={256} value={value} onChange={(event) => onChange(event.target.value)} hint={L.passphraseShort} />
      <div data-testid="passphrase-strength" className="-mt-2 grid gap-1.5 text-sm text-stone-600 dark:text-stone-300">
        <div aria-hidden className="flex gap-1">
          {[0, 1, 2, 3].map((step) => (
            <span key={step} className={`h-1.5 flex-1 rounded-full ${score !== null && score > step ? BAR[score] : 'bg-stone-200 dark:bg-stone-700'}`} />
          ))}
        </div>
        <p aria-live="polite">{value ? `${L.strengthLabel}: ${score === null ? L.strengthChecking : L.strengthWords[score]}` : null}</p>
      </div>
      <Field label={L.repeatLabel} type="password" secret="passphrase" autoComplete="new-password" maxLength={256} value={repeated} onChange={(event) => onRepeated(event.target.value)} />
    </>
  );
}
