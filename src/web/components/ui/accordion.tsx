/**
 * Questions that open to their answers (the FAQs). Native <details>: keyboard, screen readers and
 * find-in-page work without script, and each item opens on its own.
 */
import ChevronDown from 'lucide-react/icons/chevron-down';
import type { ReactNode } from 'react';

export function Accordion({ children }: { children: ReactNode }) {
  return <div className="grid gap-3">{children}</div>;
}

export function AccordionItem({ title, children }: { title: ReactNode; children: ReactNode }) {
  return (
    <details className="group rounded-2xl bg-white ring-1 ring-stone-200 open:shadow-sm dark:bg-stone-900 dark:ring-stone-800">
      <summary className="flex cursor-pointer list-none items-center justify-between gap-4 rounded-2xl px-5 py-4 font-medium text-stone-900 dark:text-stone-50 [&::-webkit-details-marker]:hidden">
        {title}
        <ChevronDown className="size-5 shrink-0 text-stone-500 dark:text-stone-400 transition group-open:rotate-180" aria-hidden />
      </summary>
      <div className="px-5 pb-4">{children}</div>
    </details>
  );
}
