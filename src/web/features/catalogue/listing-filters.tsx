/** The search box and the length chips above a listing (issue 17, item 4). */
import Search from 'lucide-react/icons/search';
import X from 'lucide-react/icons/x';
import { useId } from 'react';
import { LENGTH_FILTERS, SEARCH_MAX_LENGTH, SEARCH_MESSAGES as S, type LengthFilterId } from '#shared/catalogue-search.ts';

export function ListingFilters({
  search,
  length,
  onSearch,
  onLength,
}: {
  search: string;
  length: LengthFilterId;
  onSearch: (value: string) => void;
  onLength: (value: LengthFilterId) => void;
}) {
  const id = useId();
  return (
    <div className="mt-6 grid gap-4 sm:grid-cols-[minmax(0,1fr)_auto] sm:items-center">
      <div className="relative" role="search">
        <label htmlFor={id} className="sr-only">
          {S.label}
        </label>
        <Search className="pointer-events-none absolute left-4 top-1/2 size-5 -translate-y-1/2 text-stone-500 dark:text-stone-400" aria-hidden />
        <input
          id={id}
          type="search"
          value={search}
          maxLength={SEARCH_MAX_LENGTH}
          onChange={(e) => onSearch(e.target.value)}
          placeholder={S.placeholder}
          autoComplete="off"
          className="h-12 w-full rounded-full border border-stone-300 bg-white pl-12 pr-12 text-base text-stone-900 placeholder:text-stone-500 focus:border-teal-600 focus:outline-none focus:ring-2 focus:ring-teal-600/30 dark:border-stone-700 dark:bg-stone-950 dark:text-stone-50 dark:placeholder:text-stone-400 [&::-webkit-search-cancel-button]:hidden"
        />
        {search ? (
          <button
            type="button"
            onClick={() => onSearch('')}
            aria-label="Clear search"
            className="absolute right-1.5 top-1/2 inline-flex size-9 -translate-y-1/2 items-center justify-center rounded-full text-stone-500 hover:bg-stone-100 hover:text-stone-800 dark:text-stone-400 dark:hover:bg-stone-800 dark:hover:text-stone-100"
          >
            <X className="size-5" aria-hidden />
          </button>
        ) : null}
      </div>
      <div role="group" aria-label={S.lengthLabel} className="-mx-4 flex gap-2 overflow-x-auto px-4 pb-1 sm:mx-0 sm:flex-wrap sm:overflow-visible sm:px-0 sm:pb-0">
        {LENGTH_FILTERS.map((filter) => (
          <button
            key={filter.id}
            type="button"
            aria-pressed={filter.id === length}
            onClick={() => onLength(filter.id)}
            className={`inline-flex h-9 shrink-0 items-center whitespace-nowrap rounded-full px-4 text-sm font-medium ring-1 transition ${
              filter.id === length
                ? 'bg-stone-900 text-white ring-stone-900 dark:bg-stone-100 dark:text-stone-950 dark:ring-stone-100'
                : 'bg-white text-stone-700 ring-stone-200 hover:bg-stone-100 dark:bg-stone-900 dark:text-stone-200 dark:ring-stone-800 dark:hover:bg-stone-800'
            }`}
          >
            {filter.label}
          </button>
        ))}
      </div>
    </div>
  );
}
