/** Labelled textarea with an optional hint, matching Field. */
import { useId, type TextareaHTMLAttributes } from 'react';

type Props = TextareaHTMLAttributes<HTMLTextAreaElement> & { label: string; hint?: string };

export function TextArea({ label, hint, id, rows = 3, className = '', ...props }: Props) {
  const autoId = useId();
  const inputId = id ?? autoId;
  return (
    <div className={className}>
      <label htmlFor={inputId} className="mb-1.5 block text-sm font-medium text-stone-700 dark:text-stone-200">
        {label}
      </label>
      {hint ? (
        <p id={`${inputId}-hint`} className="-mt-1 mb-1.5 text-sm text-stone-500 dark:text-stone-400">
          {hint}
        </p>
      ) : null}
      <textarea
        id={inputId}
        rows={rows}
        aria-describedby={hint ? `${inputId}-hint` : undefined}
        className="w-full rounded-2xl border border-stone-300 bg-white px-4 py-3 text-base text-stone-900 placeholder:text-stone-400 focus:border-teal-600 focus:outline-none focus:ring-2 focus:ring-teal-600/30 dark:border-stone-700 dark:bg-stone-950 dark:text-stone-50"
        {...props}
      />
    </div>
  );
}
