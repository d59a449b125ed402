/**
 * "Lock journal" and the idle time after which it locks itself (issue 36, item 1; decision 0054), side
 * by side in the journal's own toolbar: in sight, never in a menu. The idle time is this device's
 * choice, kept on it, and an open journal counts it afresh from the change.
 */
import LockKeyhole from 'lucide-react/icons/lock-keyhole';
import { useId, useState } from 'react';
import { JOURNAL_BIOMETRIC_MESSAGES as B, JOURNAL_LOCK_AFTER, JOURNAL_LOCK_MESSAGES as L, type BiometryKind } from '#shared/journal-keys.ts';
import { Button } from '#web/components/ui/button.tsx';
import { lockAfterMinutes, setLockAfterMinutes } from '#web/features/journal/journal-lock.ts';

/** `biometric`: Face ID / fingerprint unlock turned on here (inside the apps; decision 0065), with its way off. */
export function LockControls({ onLock, biometric }: { onLock: () => void; biometric?: { enrolled: BiometryKind | null; turnOff: () => Promise<void> } }) {
  const [minutes, setMinutes] = useState(lockAfterMinutes);
  const id = useId();
  return (
    <>
      <Button size="sm" variant="outline" onClick={onLock}>
        <LockKeyhole className="size-4" aria-hidden /> {L.lockButton}
      </Button>
      {biometric?.enrolled ? (
        <Button size="sm" variant="ghost" onClick={() => void biometric.turnOff()}>
          {B.turnOff(biometric.enrolled)}
        </Button>
      ) : null}
      <span className="inline-flex items-center gap-2 text-sm text-stone-600 dark:text-stone-300">
        <label htmlFor={id}>{L.lockAfterLabel}</label>
        <select
          id={id}
          aria-describedby={`${id}-hint`}
          value={minutes}
          onChange={(event) => {
            const next = Number(event.target.value);
            setLockAfterMinutes(next);
            setMinutes(next);
          }}
          className="rounded-full bg-white px-3 py-1.5 text-stone-800 ring-1 ring-stone-300 dark:bg-stone-900 dark:text-stone-100 dark:ring-stone-700"
        >
          {JOURNAL_LOCK_AFTER.choices.map((choice) => (
            <option key={choice} value={choice}>
              {L.lockAfterChoice(choice)}
            </option>
          ))}
        </select>
        <span id={`${id}-hint`} className="sr-only">
          {L.lockAfterHint}
        </span>
      </span>
    </>
  );
}
