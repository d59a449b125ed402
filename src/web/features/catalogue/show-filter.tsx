/**
 * "Show only: Free · Downloaded" above a listing (issue 38, items 1 and 5). Its own chunk, loaded
 * once the page is live: the catalogue's first download is at its budget.
 */
import { SHOW_FILTERS, type ShowFilterId } from '#web/features/catalogue/listing-order.ts';
import { DOWNLOAD_MESSAGES } from '#shared/download-messages.ts';
import { FRONT_DOOR_MESSAGES } from '#shared/front-door-messages.ts';

const LABELS: Record<ShowFilterId, string> = { free: FRONT_DOOR_MESSAGES.free, downloaded: DOWNLOAD_MESSAGES.downloaded };

export function ShowFilter({ show, onShow, downloads }: { show: ShowFilterId | null; onShow: (value: ShowFilterId | null) => void; downloads: boolean }) {
  return (
    <div role="group" aria-label={FRONT_DOOR_MESSAGES.showOnly} className="flex flex-wrap gap-2">
      {SHOW_FILTERS.filter((id) => id !== 'downloaded' || downloads).map((id) => (
        <button
          key={id}
          type="button"
          aria-pressed={show === id}
          onClick={() => onShow(show === id ? null : id)}
          className={`inline-flex h-9 shrink-0 items-center whitespace-nowrap rounded-full px-4 text-sm font-medium ring-1 transition ${
            show === id
              ? 'bg-teal-700 text-white ring-teal-700 dark:bg-teal-400 dark:text-stone-950 dark:ring-teal-400'
              : 'bg-white text-stone-700 ring-stone-200 hover:bg-stone-100 dark:bg-stone-900 dark:text-stone-200 dark:ring-stone-800 dark:hover:bg-stone-800'
          }`}
        >
          {LABELS[id]}
        </button>
      ))}
    </div>
  );
}
