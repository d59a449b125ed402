/** Small building blocks shared by the admin tabs. */
import { useId, type ReactNode } from 'react';

export function Panel({ title, actions, children }: { title: string; actions?: ReactNode; children: ReactNode }) {
  const id = useId();
  return (
    <section aria-labelledby={id} className="rounded-3xl bg-white p-5 ring-1 ring-stone-200 sm:p-6 dark:bg-stone-900 dark:ring-stone-800">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id={id} className="font-serif text-xl font-semibold text-stone-900 dark:text-stone-50">
          {title}
        </h2>
        {actions ? <div className="flex flex-wrap gap-2">{actions}</div> : null}
      </div>
      <div className="mt-4">{children}</div>
    </section>
  );
}

/** Spec: critical red, high orange, medium yellow, low green. */
export function SeverityBadge({ severity }: { severity: string }) {
  const colours: Record<string, string> = {
    critical: 'bg-red-100 text-red-900 dark:bg-red-950 dark:text-red-200',
    high: 'bg-orange-100 text-orange-900 dark:bg-orange-950 dark:text-orange-200',
    medium: 'bg-yellow-100 text-yellow-900 dark:bg-yellow-950 dark:text-yellow-200',
    low: 'bg-green-100 text-green-900 dark:bg-green-950 dark:text-green-200',
  };
  return <span className={`inline-flex rounded-full px-2 py-0.5 text-xs font-semibold capitalize ${colours[severity] ?? colours.low}`}>{severity}</span>;
}

export const dateTime = (iso: string) => new Date(iso).toLocaleString('en-GB', { day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit' });

export const selectClass =
  'h-10 rounded-full border border-stone-300 bg-white px-3 text-sm text-stone-800 dark:border-stone-700 dark:bg-stone-950 dark:text-stone-100';

/** A labelled filter: "All …" plus each option (the label is for screen readers; the select shows the value). */
export function FilterSelect({ label, allLabel, options, value, onChange }: { label: string; allLabel: string; options: readonly string[]; value: string; onChange: (value: string) => void }) {
  const id = useId();
  return (
    <>
      <label htmlFor={id} className="sr-only">
        {label}
      </label>
      <select id={id} className={selectClass} value={value} onChange={(e) => onChange(e.target.value)}>
        <option value="all">{allLabel}</option>
        {options.map((option) => (
          <option key={option} value={option}>
            {option}
          </option>
        ))}
      </select>
    </>
  );
}
