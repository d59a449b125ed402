import type { ButtonHTMLAttributes } from 'react';

type Variant = 'primary' | 'secondary' | 'ghost' | 'outline' | 'danger';
type Size = 'sm' | 'md' | 'lg';

const VARIANTS: Record<Variant, string> = {
  primary:
    'bg-teal-700 text-white shadow-sm hover:bg-teal-800 dark:bg-teal-400 dark:text-stone-950 dark:hover:bg-teal-300',
  secondary:
    'bg-white text-teal-800 ring-1 ring-teal-700/20 hover:bg-teal-50 dark:bg-stone-800 dark:text-teal-200 dark:ring-teal-300/20 dark:hover:bg-stone-700',
  outline:
    'bg-transparent text-stone-700 ring-1 ring-stone-300 hover:bg-stone-100 dark:text-stone-200 dark:ring-stone-700 dark:hover:bg-stone-800',
  ghost: 'bg-transparent text-stone-700 hover:bg-stone-100 dark:text-stone-200 dark:hover:bg-stone-800',
  /** What cannot be undone (deleting an account): asked for only after a confirmation. */
  danger: 'bg-rose-700 text-white shadow-sm hover:bg-rose-800 dark:bg-rose-300 dark:text-stone-950 dark:hover:bg-rose-200',
};

const SIZES: Record<Size, string> = {
  sm: 'h-9 px-3 text-sm',
  md: 'h-11 px-5 text-base',
  lg: 'h-12 px-6 text-base sm:text-lg',
};

/** Class names for button-looking elements (links included). */
export function buttonClasses({ variant = 'primary', size = 'md', className = '' }: { variant?: Variant; size?: Size; className?: string } = {}): string {
  return `inline-flex items-center justify-center gap-2 rounded-full font-medium transition-colors disabled:pointer-events-none disabled:opacity-60 ${VARIANTS[variant]} ${SIZES[size]} ${className}`;
}

export type ButtonProps = ButtonHTMLAttributes<HTMLButtonElement> & { variant?: Variant; size?: Size };

/** A button (type="button" unless told otherwise); links that look like buttons use buttonClasses. */
export function Button({ variant, size, className, type, ...props }: ButtonProps) {
  return <button type={type ?? 'button'} className={buttonClasses({ variant, size, className })} {...props} />;
}
