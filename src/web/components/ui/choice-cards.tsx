/**
 * A set of choices as large tappable cards that are native radio buttons underneath: arrow keys move
 * between them and a screen reader hears a radio group named by `labelledBy`.
 */
import { useId } from 'react';

export function ChoiceCards<Id extends string>({
  options,
  value,
  onChange,
  labelledBy,
  className = 'grid gap-3 sm:grid-cols-2',
}: {
  options: readonly { id: Id; label: string }[];
  value: Id | null;
  onChange: (id: Id) => void;
  labelledBy: string;
  className?: string;
}) {
  const name = useId();
  return (
    <div role="radiogroup" aria-labelledby={labelledBy} className={className}>
      {options.map((option) => (
        <label
          key={option.id}
          className={`flex min-h-12 cursor-pointer items-center gap-3 rounded-2xl px-4 py-3 font-medium ring-1 transition ${
            value === option.id
              ? 'bg-teal-700 text-white ring-teal-700 dark:bg-teal-400 dark:text-stone-950 dark:ring-teal-400'
              : 'bg-white text-stone-800 ring-stone-200 hover:bg-stone-100 dark:bg-stone-900 dark:text-stone-100 dark:ring-stone-800 dark:hover:bg-stone-800'
          }`}
        >
          <input
            type="radio"
            name={name}
            value={option.id}
            checked={value === option.id}
            onChange={() => onChange(option.id)}
            className="size-4 shrink-0 cursor-pointer appearance-none rounded-full border-2 border-current checked:border-[5px]"
          />
          {option.label}
        </label>
      ))}
    </div>
  );
}
