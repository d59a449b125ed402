/**
 * "What brings you here?" (issue 17, item 3): four answers as native radio buttons (arrow keys move
 * between them, as a screen reader expects), saved with the practice preferences as soon as one is
 * chosen. The choice shows at once; if saving fails, it says so in place and the choice stays on the
 * page so the suggestion still follows it.
 */
import { useState } from 'react';
import { FOCUS_CHOICES, type FocusId } from '#shared/practice.ts';
import { ChoiceCards } from '#web/components/ui/choice-cards.tsx';
import { usePracticePreference } from '#web/features/practice/use-practice.ts';

const FOCUS_SAVE_FAILED = 'We couldn’t save your answer. Please try again.';

export function FocusQuestion({ saved, onChoose, headingId }: { saved: FocusId | null; onChoose?: (focus: FocusId) => void; headingId: string }) {
  const [chosen, setChosen] = useState<FocusId | null>(null);
  const preference = usePracticePreference();
  const current = chosen ?? saved;

  const choose = (focus: FocusId) => {
    setChosen(focus);
    onChoose?.(focus);
    preference.mutate({ focus });
  };

  return (
    <div>
      <ChoiceCards options={FOCUS_CHOICES} value={current} onChange={choose} labelledBy={headingId} />
      <p role="status" className="mt-2 min-h-6 text-sm text-stone-600 dark:text-stone-300" data-testid="focus-status">
        {preference.isError ? <span className="text-red-700 dark:text-red-300">{FOCUS_SAVE_FAILED}</span> : preference.isSuccess ? 'Saved.' : ''}
      </p>
    </div>
  );
}
