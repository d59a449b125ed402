import type { ReactNode } from 'react';

/** The centred card that sign-in, sign-up and reset screens sit in. */
export function AuthCard({ title, subtitle, children }: { title: string; subtitle?: string; children: ReactNode }) {
  return (
    <div className="mx-auto w-full max-w-md px-4 py-12 sm:py-16">
      <div className="rounded-3xl bg-white p-6 shadow-xl shadow-teal-900/5 ring-1 ring-stone-200 sm:p-8 dark:bg-stone-900 dark:ring-stone-800">
        <h1 className="font-serif text-3xl font-semibold text-stone-900 dark:text-stone-50">{title}</h1>
        {subtitle ? <p className="mt-2 text-stone-600 dark:text-stone-300">{subtitle}</p> : null}
        <div className="mt-6">{children}</div>
      </div>
    </div>
  );
}
