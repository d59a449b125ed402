/** Labelled textarea with an optional hint, error and character count, matching Field. */
import { useId, type ReactNode, type TextareaHTMLAttributes } from 'react';
import { FieldError, FieldHint, FieldLabel } from '#web/components/ui/field.tsx';

type Props = TextareaHTMLAttributes<HTMLTextAreaElement> & {
  label: string;
  /** A quieter aside after the label, e.g. '(optional)'. */
  note?: ReactNode;
  hint?: string;
  error?: string;
  /** Shown under the box, right-aligned: e.g. '12/499'. */
  count?: string;
};

export function TextArea({ label, note, hint, error, count, id, rows = 3, className = '', ...props }: Props) {
  const autoId = useId();
  const inputId = id ?? autoId;
  const describedBy = [hint ? `${inputId}-hint` : '', error ? `${inputId}-error` : count ? `${inputId}-count` : ''].filter(Boolean).join(' ') || undefined;
  return (
    <div className={className}>
      <FieldLabel htmlFor={inputId} note={note}>
        {label}
      </FieldLabel>
      {hint ? (
        <FieldHint id={`${inputId}-hint`} className="-mt-1 mb-1.5">
          {hint}
        </FieldHint>
      ) : null}
      <textarea
        id={inputId}
        rows={rows}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy}
        className="w-full rounded-2xl border border-stone-300 bg-white px-4 py-3 text-base text-stone-900 placeholder:text-stone-400 focus:border-teal-600 focus:outline-none focus:ring-2 focus:ring-teal-600/30 aria-[invalid=true]:border-rose-500 dark:border-stone-700 dark:bg-stone-950 dark:text-stone-50"
        {...props}
      />
      {count !== undefined ? (
        <FieldHint id={`${inputId}-count`} className="mt-1 text-right">
          {count}
        </FieldHint>
      ) : null}
      {error ? <FieldError id={`${inputId}-error`}>{error}</FieldError> : null}
    </div>
  );
}
