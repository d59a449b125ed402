import { Clock, Lock, Play } from 'lucide-react';
import { forwardRef } from 'react';
import type { MeditationCard as Card } from '#shared/contracts/catalogue.ts';
import { MESSAGES } from '#shared/messages.ts';

type Props = { meditation: Card; locked: boolean; highlighted?: boolean; onSelect: (meditation: Card) => void };

/** A whole-card button: title, description, duration; a lock and 'Subscribe to listen' for non-subscribers. */
export const MeditationCard = forwardRef<HTMLButtonElement, Props>(function MeditationCard({ meditation, locked, highlighted, onSelect }, ref) {
  return (
    <button
      ref={ref}
      type="button"
      onClick={() => onSelect(meditation)}
      aria-describedby={`${meditation.id}-meta`}
      data-testid="meditation-card"
      className={`group flex h-full w-full flex-col rounded-3xl bg-white p-6 text-left shadow-sm ring-1 transition hover:-translate-y-0.5 hover:shadow-lg dark:bg-stone-900 ${
        highlighted ? 'ring-2 ring-teal-600 dark:ring-teal-300' : 'ring-stone-200 dark:ring-stone-800'
      }`}
    >
      <div className="flex items-start justify-between gap-4">
        <h2 className="font-serif text-xl font-semibold leading-snug text-stone-900 dark:text-stone-50">{meditation.title}</h2>
        <span
          className="inline-flex size-10 shrink-0 items-center justify-center rounded-full bg-teal-50 text-teal-800 transition group-hover:bg-teal-700 group-hover:text-white dark:bg-teal-950 dark:text-teal-200 dark:group-hover:bg-teal-400 dark:group-hover:text-stone-950"
          aria-hidden
        >
          {locked ? <Lock className="size-4" /> : <Play className="size-4" />}
        </span>
      </div>
      <p className="mt-3 flex-1 leading-relaxed text-stone-600 dark:text-stone-300">{meditation.description}</p>
      <div id={`${meditation.id}-meta`} className="mt-5 flex flex-wrap items-center gap-x-4 gap-y-2 text-sm text-stone-500 dark:text-stone-400">
        <span className="inline-flex items-center gap-1.5">
          <Clock className="size-4" aria-hidden />
          {meditation.duration}
        </span>
        {locked ? (
          <span className="inline-flex items-center gap-1.5 font-medium text-amber-700 dark:text-amber-300">
            <Lock className="size-4" aria-hidden />
            {MESSAGES.catalogue.subscribeToListen}
          </span>
        ) : null}
      </div>
    </button>
  );
});
