/** A one-line input that commits its value on Enter (instead of submitting a surrounding form). */
import type { InputHTMLAttributes } from 'react';

type Props = Omit<InputHTMLAttributes<HTMLInputElement>, 'onChange'> & { value: string; onChange: (value: string) => void; onEnter: () => void };

export function EnterInput({ value, onChange, onEnter, className = '', ...props }: Props) {
  return (
    <input
      value={value}
      onChange={(e) => onChange(e.target.value)}
      onKeyDown={(e) => {
        if (e.key !== 'Enter') return;
        e.preventDefault();
        onEnter();
      }}
      className={`h-10 min-w-0 flex-1 rounded-full border border-stone-300 bg-white px-4 text-sm dark:border-stone-700 dark:bg-stone-950 ${className}`}
      {...props}
    />
  );
}
