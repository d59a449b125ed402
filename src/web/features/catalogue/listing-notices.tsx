/**
 * What a listing says when it has no cards to show, or was asked for one meditation (focused, or said
 * not to be held): a chunk of its own, loaded when one of these is needed (the listing's first load
 * is at its 120 KB budget, and none of these is on a listing's first paint). The error state stays in the page: it
 * must show when this chunk could not be fetched either.
 */
import { useEffect, type RefObject } from 'react';
import { Link } from 'react-router';
import { CATALOGUE_MESSAGES } from '#shared/catalogue-messages.ts';
import { SEARCH_MESSAGES } from '#shared/catalogue-search.ts';
import { Button } from '#web/components/ui/button.tsx';

type Props =
  /** A link to one meditation: its card (`target`) brought into view and focused, or 'Meditation not found' when the library does not hold it. */
  | { target: RefObject<HTMLButtonElement | null>; found: boolean }
  /** A category with nothing in it (`message` null), or why filters left nothing and the way back. */
  | { message: string | null; onClear: () => void };

export function ListingNotice(props: Props) {
  const target = 'target' in props ? props.target : null;
  useEffect(() => {
    target?.current?.scrollIntoView({ block: 'center' });
    target?.current?.focus({ preventScroll: true });
  }, [target]);
  if ('found' in props) return props.found ? null : <NotFoundNotice />;
  return props.message ? <NoMatches message={props.message} onClear={props.onClear} /> : <EmptyListing />;
}

function NotFoundNotice() {
  return (
    <div role="status" className="mt-8 rounded-3xl bg-amber-50 p-5 text-amber-950 ring-1 ring-amber-200 dark:bg-amber-950/30 dark:text-amber-100 dark:ring-amber-900" data-testid="meditation-not-found">
      <p className="font-semibold">{CATALOGUE_MESSAGES.notFound}</p>
      <p className="mt-1">{CATALOGUE_MESSAGES.notFoundBody}</p>
    </div>
  );
}

function EmptyListing() {
  return (
    <div className="rounded-3xl bg-white p-10 text-center ring-1 ring-stone-200 dark:bg-stone-900 dark:ring-stone-800">
      <p className="text-lg text-stone-700 dark:text-stone-200">{CATALOGUE_MESSAGES.empty}</p>
      <Link to="/meditations/all" className="mt-4 inline-block text-teal-700 underline-offset-4 hover:underline dark:text-teal-300">
        Browse all meditations
      </Link>
    </div>
  );
}

function NoMatches({ message, onClear }: { message: string; onClear: () => void }) {
  return (
    <div className="rounded-3xl bg-white p-10 text-center ring-1 ring-stone-200 dark:bg-stone-900 dark:ring-stone-800">
      <p role="status" className="text-lg text-stone-700 dark:text-stone-200">
        {message}
      </p>
      <Button variant="outline" size="sm" className="mt-4" onClick={onClear}>
        {SEARCH_MESSAGES.clear}
      </Button>
    </div>
  );
}
