/** Account › Settings › Appearance: the colour theme on this device (issue 17, item 8). */
import { useState } from 'react';
import { THEMES } from '#shared/theme.ts';
import { ChoiceCards } from '#web/components/ui/choice-cards.tsx';
import { useTheme } from '#web/lib/theme.ts';

export function AppearanceCard() {
  const [theme, choose] = useTheme();
  const [unsaved, setUnsaved] = useState(false);

  return (
    <section aria-labelledby="appearance-heading">
      <h2 id="appearance-heading" className="font-serif text-2xl font-semibold text-stone-900 dark:text-stone-50">
        Appearance
      </h2>
      <p className="mt-1 text-stone-600 dark:text-stone-300">How Harbour Mind looks on this device.</p>
      <ChoiceCards options={THEMES} value={theme} onChange={(id) => setUnsaved(!choose(id))} labelledBy="appearance-heading" className="mt-4 grid gap-3 sm:grid-cols-3" />
      <p role="status" className="mt-2 min-h-5 text-sm text-stone-600 dark:text-stone-300">
        {unsaved ? 'This browser is not keeping settings, so this applies until you close the page.' : ''}
      </p>
    </section>
  );
}
