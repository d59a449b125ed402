/** Labelled text input with hint and error wired to aria-describedby; password fields get a show/hide toggle. */
import Eye from 'lucide-react/icons/eye';
import EyeOff from 'lucide-react/icons/eye-off';
import { useId, useState, type InputHTMLAttributes, type ReactNode } from 'react';

type Props = InputHTMLAttributes<HTMLInputElement> & {
  label: string;
  hint?: string;
  error?: string;
  /** What the show/hide toggle of a secret field names: 'Show passphrase' on the journal's fields (issue 38: they said 'Show password'). */
  secret?: 'password' | 'passphrase';
};

const inputClass =
  'h-12 w-full rounded-2xl border border-stone-300 bg-white px-4 text-base text-stone-900 placeholder:text-stone-400 focus:border-teal-600 focus:outline-none focus:ring-2 focus:ring-teal-600/30 aria-[invalid=true]:border-rose-500 dark:border-stone-700 dark:bg-stone-950 dark:text-stone-50 dark:focus:border-teal-300';

/** The label every form control here wears; `note` is the quieter '(optional)' kind of aside. */
export function FieldLabel({ htmlFor, children, note }: { htmlFor: string; children: ReactNode; note?: ReactNode }) {
  return (
    <label htmlFor={htmlFor} className="mb-1.5 block text-sm font-medium text-stone-700 dark:text-stone-200">
      {children}
      {note ? <span className="font-normal text-stone-500 dark:text-stone-400"> {note}</span> : null}
    </label>
  );
}

/** Quiet words beside a control (a hint, a count); `id` is what the control's aria-describedby names. */
export function FieldHint({ id, children, className = 'mt-1.5' }: { id: string; children: ReactNode; className?: string }) {
  return (
    <p id={id} className={`text-sm text-stone-500 dark:text-stone-400 ${className}`}>
      {children}
    </p>
  );
}

/** A field's error, announced when it appears; `id` is what the control's aria-describedby names. */
export function FieldError({ id, children }: { id: string; children: ReactNode }) {
  return (
    <p id={id} role="alert" className="mt-1.5 text-sm text-rose-700 dark:text-rose-300">
      {children}
    </p>
  );
}

/** A form's refusal (the server's words, or the form's own check), announced as it appears; nothing while there is none. */
export function FormProblem({ children }: { children: ReactNode }) {
  return children ? (
    <p role="alert" className="rounded-2xl bg-rose-50 px-4 py-3 text-sm text-rose-800 dark:bg-rose-950/50 dark:text-rose-200">
      {children}
    </p>
  ) : null;
}

export function Field({ label, hint, error, id, type = 'text', className = '', secret = 'password', ...props }: Props) {
  const autoId = useId();
  const inputId = id ?? autoId;
  const [reveal, setReveal] = useState(false);
  const isPassword = type === 'password';
  const describedBy = [hint ? `${inputId}-hint` : '', error ? `${inputId}-error` : ''].filter(Boolean).join(' ') || undefined;
  return (
    <div className={className}>
      <FieldLabel htmlFor={inputId}>{label}</FieldLabel>
      <div className="relative">
        <input
          id={inputId}
          type={isPassword && reveal ? 'text' : type}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy}
          className={`${inputClass} ${isPassword ? 'pr-12' : ''}`}
          {...props}
        />
        {isPassword ? (
          <button
            type="button"
            onClick={() => setReveal((r) => !r)}
            aria-label={`${reveal ? 'Hide' : 'Show'} ${secret}`}
            aria-pressed={reveal}
            className="absolute right-1.5 top-1/2 inline-flex size-9 -translate-y-1/2 items-center justify-center rounded-full text-stone-500 dark:text-stone-400 hover:bg-stone-100 hover:text-stone-800 dark:hover:bg-stone-800 dark:hover:text-stone-100"
          >
            {reveal ? <EyeOff className="size-5" aria-hidden /> : <Eye className="size-5" aria-hidden />}
          </button>
        ) : null}
      </div>
      {hint ? <FieldHint id={`${inputId}-hint`}>{hint}</FieldHint> : null}
      {error ? <FieldError id={`${inputId}-error`}>{error}</FieldError> : null}
    </div>
  );
}
