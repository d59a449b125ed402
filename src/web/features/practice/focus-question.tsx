/**
 * "What brings you here?" (issue 17, item 3): four answers as native radio buttons (arrow keys move
 * between them, as a screen reader expects), saved with the practice preferences as soon as one is
 * chosen. The choice shows at once; if saving fails, it says so in place and the choice stays on the
 * page so the suggestion still follows it.
 */
import { useId, useState } from 'react';
import { FOCUS_CHOICES, type FocusId } from '#shared/practice.ts';
import { usePracticePreference } from '#web/features/practice/use-practice.ts';

const FOCUS_SAVE_FAILED = 'We couldn’t save your answer. Please try again.';

export function FocusQuestion({ saved, onChoose, headingId }: { saved: FocusId | null; onChoose?: (focus: FocusId) => void; headingId: string }) {
  const [chosen, setChosen] = useState<FocusId | null>(null);
  const preference = usePracticePreference();
  const name = useId();
  const current = chosen ?? saved;

  const choose = (focus: FocusId) => {
    setChosen(focus);
    onChoose?.(focus);
    preference.mutate({ focus });
  };

  return (
    <div>
      <div role="radiogroup" aria-labelledby={headingId} className="grid gap-3 sm:grid-cols-2">
        {FOCUS_CHOICES.map((choice) => (
          <label
            key={choice.id}
            className={`flex min-h-12 cursor-pointer items-center gap-3 rounded-2xl px-4 py-3 font-medium ring-1 transition ${
              current === choice.id
                ? 'bg-teal-700 text-white ring-teal-700 dark:bg-teal-400 dark:text-stone-950 dark:ring-teal-400'
                : 'bg-white text-stone-800 ring-stone-200 hover:bg-stone-100 dark:bg-stone-900 dark:text-stone-100 dark:ring-stone-800 dark:hover:bg-stone-800'
            }`}
          >
            <input type="radio" name={name} value={choice.id} checked={current === choice.id} onChange={() => choose(choice.id)} className="size-4 shrink-0 cursor-pointer appearance-none rounded-full border-2 border-current checked:border-[5px]" />
            {choice.label}
          </label>
        ))}
      </div>
      <p role="status" className="mt-2 min-h-6 text-sm text-stone-600 dark:text-stone-300" data-testid="focus-status">
        {preference.isError ? <span className="text-red-700 dark:text-red-300">{FOCUS_SAVE_FAILED}</span> : preference.isSuccess ? 'Saved.' : ''}
      </p>
    </div>
  );
}
