/**
 * The settings form of a timed practice, the meditation timer's (/timer) or the breathing guide's
 * (/breathe): its button begins the practice (with, for a visitor, the way to an account that counts
 * it), and a choice of one among several is a radio group its legend names.
 */
import Play from 'lucide-react/icons/play';
import { useId, type ReactNode } from 'react';
import { Button } from '#web/components/ui/button.tsx';
import { AccountInvite } from '#web/features/practice/practice-finished.tsx';

type BeginProps = {
  onBegin: () => void;
  /** The button's word ('Begin'), and what it says while the sounds load ('Preparing the bells…'). */
  begin: { label: string; preparing: string };
  loading: boolean;
  /** For a visitor: the way to an account that counts this practice beside the button. */
  invite: { path: string; counts: string } | null;
  children: ReactNode;
};

export function PracticeSettingsForm({ onBegin, begin, loading, invite, children }: BeginProps) {
  return (
    <form
      className="mt-8 space-y-8"
      onSubmit={(event) => {
        event.preventDefault();
        onBegin();
      }}
    >
      {children}
      <div className="flex flex-wrap items-center gap-4">
        <Button type="submit" size="lg" disabled={loading}>
          <Play className="size-5" aria-hidden /> {loading ? begin.preparing : begin.label}
        </Button>
        {invite ? (
          <p className="text-sm text-stone-600 dark:text-stone-300">
            <AccountInvite {...invite} />
          </p>
        ) : null}
      </div>
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
