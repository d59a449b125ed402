/** Account › Settings › Appearance: the colour theme on this device (issue 17, item 8). */
import { useId, useState } from 'react';
import { THEMES } from '#shared/theme.ts';
import { useTheme } from '#web/lib/theme.ts';

export function AppearanceCard() {
  const [theme, choose] = useTheme();
  const [unsaved, setUnsaved] = useState(false);
  const name = useId();

  return (
    <section aria-labelledby="appearance-heading">
      <h2 id="appearance-heading" className="font-serif text-2xl font-semibold text-stone-900 dark:text-stone-50">
        Appearance
      </h2>
      <p className="mt-1 text-stone-600 dark:text-stone-300">How Harbour Mind looks on this device.</p>
      <div role="radiogroup" aria-labelledby="appearance-heading" className="mt-4 grid gap-3 sm:grid-cols-3">
        {THEMES.map((option) => (
          <label
            key={option.id}
            className={`flex min-h-12 cursor-pointer items-center gap-3 rounded-2xl px-4 py-3 font-medium ring-1 transition ${
              theme === option.id
                ? 'bg-teal-700 text-white ring-teal-700 dark:bg-teal-400 dark:text-stone-950 dark:ring-teal-400'
                : 'bg-white text-stone-800 ring-stone-200 hover:bg-stone-100 dark:bg-stone-900 dark:text-stone-100 dark:ring-stone-800 dark:hover:bg-stone-800'
            }`}
          >
            <input
              type="radio"
              name={name}
              value={option.id}
              checked={theme === option.id}
              onChange={() => setUnsaved(!choose(option.id))}
              className="size-4 shrink-0 cursor-pointer appearance-none rounded-full border-2 border-current checked:border-[5px]"
            />
            {option.label}
          </label>
        ))}
      </div>
      <p role="status" className="mt-2 min-h-5 text-sm text-stone-600 dark:text-stone-300">
        {unsaved ? 'This browser is not keeping settings, so this applies until you close the page.' : ''}
      </p>
    </section>
  );
}
