/**
 * The settings form of a timed practice, the meditation timer's (/timer) or the breathing guide's
 * (/breathe): submitting it begins the practice, and a choice of one among several is a radio group
 * its legend names.
 */
import { useId, type ReactNode } from 'react';

export function PracticeSettingsForm({ onBegin, children }: { onBegin: () => void; children: ReactNode }) {
  return (
    <form
      className="mt-8 space-y-8"
      onSubmit={(event) => {
        event.preventDefault();
        onBegin();
      }}
    >
      {children}
    </form>
  );
}

/** The choices (`children`, radios) under their legend; `after` is what a choice opens below them (the timer's own minutes). */
export function RadioFieldset({ legend, className, children, after }: { legend: string; className: string; children: ReactNode; after?: ReactNode }) {
  const id = useId();
  return (
    <fieldset>
      <legend id={id} className="mb-3 text-sm font-medium text-stone-700 dark:text-stone-200">
        {legend}
      </legend>
      <div role="radiogroup" aria-labelledby={id} className={className}>
        {children}
      </div>
      {after}
    </fieldset>
  );
}
