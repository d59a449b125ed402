import RotateCw from 'lucide-react/icons/rotate-cw';
import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { Link, useParams } from 'react-router';
import { ASSIGNABLE_CATEGORIES, categoryInfo, isListingSlug, slugFromCategoryName } from '#shared/catalogue.ts';
import { SEARCH_MESSAGES } from '#shared/catalogue-search.ts';
import type { MeditationCard as Card } from '#shared/contracts/catalogue.ts';
import { CATALOGUE_MESSAGES } from '#shared/catalogue-messages.ts';
import { Button } from '#web/components/ui/button.tsx';
import { Spinner } from '#web/components/ui/spinner.tsx';
import { rememberedViewer, useViewer } from '#web/features/auth/use-viewer.ts';
import { useWhenKnown } from '#web/lib/use-when-known.ts';
import { ListingFilters } from '#web/features/catalogue/listing-filters.tsx';
import { MeditationCard } from '#web/features/catalogue/meditation-card.tsx';
import { useListingFilter } from '#web/features/catalogue/use-listing-filter.ts';
import { useToggleFavourite } from '#web/features/favourites/use-favourites.ts';
import { useMeditations } from '#web/features/catalogue/use-meditations.ts';
import { usePlayer } from '#web/features/player/player-context.tsx';
import { usePlayed } from '#web/features/practice/use-played.ts';
import { usePageTitle } from '#web/lib/use-page-title.ts';
import { useHydrated } from '#web/lib/hydration.tsx';
import { useOnline } from '#web/lib/use-online.ts';
import { useDownloadedIds } from '#web/features/downloads/use-downloaded-ids.ts';
import { emptyListingMessage, unavailableReason } from '#web/features/catalogue/listing-order.ts';
import { OFFLINE_MESSAGES } from '#shared/offline-messages.ts';
import { loadSubscribeDialog } from '#web/lazy-chunks.ts';

// Issue 38, items 1 and 5: their own chunks (the catalogue's first download is at its budget).
const ShowFilter = lazy(() => import('#web/features/catalogue/show-filter.tsx').then((m) => ({ default: m.ShowFilter })));
const DownloadControl = lazy(() => import('#web/features/downloads/download-control.tsx').then((m) => ({ default: m.DownloadControl })));
const SubscribeDialog = lazy(() => loadSubscribeDialog().then((m) => ({ default: m.SubscribeDialog })));
const ListingNotice = lazy(() => import('#web/features/catalogue/listing-notices.tsx').then((m) => ({ default: m.ListingNotice })));
const NotFoundPage = lazy(() => import('#web/features/not-found/not-found-page.tsx').then((m) => ({ default: m.NotFoundPage })));

const QUICK_LINKS = [
  { slug: 'all', label: 'All' },
  { slug: 'recently-added', label: 'Recently Added' },
  ...ASSIGNABLE_CATEGORIES.filter((c) => !['anxiety', 'emotional-regulation'].includes(c.id)).map((c) => ({ slug: c.id, label: categoryInfo(c.id).title })),
];

/** Resolves the listing slug from whichever route alias brought us here. */
function useListingSlug(): { slug: string; focusId?: string } {
  const params = useParams();
  if (params.meditationId) return { slug: 'all', focusId: params.meditationId };
  if (params.categoryName) return { slug: slugFromCategoryName(params.categoryName) };
  return { slug: (params.categorySlug ?? 'all').toLowerCase() };
}

/** A listing, or the 404 page for a slug that names no category (the server answered 404 too). */
export function MeditationsPage() {
  const { slug, focusId } = useListingSlug();
  if (!isListingSlug(slug)) return <NotFoundPage />;
  // Keyed: a navigation to another listing starts afresh (its order is decided again).
  return <Listing key={slug} slug={slug} focusId={focusId} />;
}

function Listing({ slug, focusId }: { slug: string; focusId?: string }) {
  const info = categoryInfo(slug);
  const query = useMeditations(slug);
  const viewer = useViewer();
  const favourites = useToggleFavourite();
  const [dialogFor, setDialogFor] = useState<Card | null>(null);
  const focusRef = useRef<HTMLButtonElement>(null);
  const activeChipRef = useRef<HTMLAnchorElement>(null);
  const downloaded = useDownloadedIds(viewer.user?.id ?? null);
  const online = useOnline();
  const hydrated = useHydrated();
  // Free ones first for whoever cannot play the rest (issue 38, item 1); "Recently Added" keeps its
  // order. The order the cards are first shown in stays until the next navigation (a subscriber's
  // listing moved under their finger when /api/me answered): a prepared page is painted in the
  // visitors' order, or hidden by styles.css on a device that remembers a subscriber until the app
  // shows theirs; otherwise who is known to be here decides, else whom the device remembers.
  // Undecided: null on a prepared page (whose order was painted before anyone was known), else undefined.
  const [subscriberOrder, setSubscriberOrder] = useState<boolean | null | undefined>(hydrated ? undefined : null);
  if (subscriberOrder == null && hydrated && query.data) {
    setSubscriberOrder(subscriberOrder === null || viewer.status === 'loading' ? rememberedViewer() === 'subscriber' : viewer.canListen);
  }
  const filter = useListingFilter(query.data?.meditations, { freeOnesFirst: !subscriberOrder && slug !== 'recently-added', downloaded });

  usePageTitle(info.title);

  // On a phone the chips scroll sideways: bring the active one into view (the page does not move).
  useEffect(() => {
    const chip = activeChipRef.current;
    const strip = chip?.closest('nav');
    if (!chip || !strip) return;
    const left = chip.offsetLeft - (strip.clientWidth - chip.offsetWidth) / 2;
    strip.scrollTo({ left: Math.max(0, left), behavior: 'instant' });
  }, [slug]);

  const player = usePlayer();
  const played = usePlayed(viewer.signedIn && !viewer.offline);
  const onResume = (meditation: Card, seconds: number) => {
    const listing = filter.shown.length > 0 ? filter.shown : [meditation];
    player.resume(meditation, seconds, viewer.canListen ? listing : listing.filter((m) => m.free));
  };
  // A tap before /api/me answers waits for it: a subscriber's early tap must play, not meet the paywall.
  const onSelect = useWhenKnown(viewer.status !== 'loading', (meditation: Card) => {
    const listing = filter.shown.length > 0 ? filter.shown : [meditation];
    if (viewer.canListen) player.choose(meditation, listing);
    // A free sample plays for anyone; what follows it in the queue is the other free ones only.
    else if (meditation.free) player.choose(meditation, listing.filter((m) => m.free));
    else setDialogFor(meditation);
  });

  return (
    <div className="mx-auto max-w-6xl px-4 py-12 sm:px-6">
      <header className="max-w-3xl">
        <h1 className="font-serif text-4xl font-semibold tracking-tight text-stone-900 sm:text-5xl dark:text-stone-50">{info.title}</h1>
        <p className="mt-4 text-lg leading-relaxed text-stone-600 dark:text-stone-300">{info.description}</p>
      </header>

      <nav aria-label="Categories" className="-mx-4 mt-8 overflow-x-auto px-4 pb-2 sm:mx-0 sm:px-0">
        <ul className="flex w-max gap-2 sm:w-auto sm:flex-wrap">
          {QUICK_LINKS.map((link) => (
            <li key={link.slug}>
              <Link
                to={`/meditations/${link.slug}`}
                ref={link.slug === slug ? activeChipRef : undefined}
                aria-current={link.slug === slug ? 'page' : undefined}
                className={`inline-flex h-9 items-center whitespace-nowrap rounded-full px-4 text-sm font-medium ring-1 transition ${
                  link.slug === slug
                    ? 'bg-teal-700 text-white ring-teal-700 dark:bg-teal-400 dark:text-stone-950 dark:ring-teal-400'
                    : 'bg-white text-stone-700 ring-stone-200 hover:bg-stone-100 dark:bg-stone-900 dark:text-stone-200 dark:ring-stone-800 dark:hover:bg-stone-800'
                }`}
              >
                {link.label}
              </Link>
            </li>
          ))}
        </ul>
      </nav>

      <ListingFilters search={filter.search} length={filter.length} onSearch={filter.setSearch} onLength={filter.setLength} />
      {/* Its row is kept while its chunk loads, so nothing below moves. */}
      <div className="mt-3 min-h-9">
        {hydrated ? (
          <Suspense fallback={null}>
            <ShowFilter show={filter.show} onShow={filter.setShow} downloads={viewer.canListen || downloaded.size > 0} />
          </Suspense>
        ) : null}
      </div>

      {/* A link to one meditation: it is brought into view and focused, or the listing says it is not held. */}
      {focusId && query.data ? (
        <Suspense fallback={null}>
          <ListingNotice key={focusId} target={focusRef} found={query.data.meditations.some((m) => m.id === focusId)} />
        </Suspense>
      ) : null}

      <section aria-label="Meditations" aria-busy={query.isPending} className="mt-10">
        {query.isPending ? (
          <Spinner label={CATALOGUE_MESSAGES.loading} />
        ) : query.isError ? (
          <div role="alert" className="rounded-3xl bg-rose-50 p-6 text-rose-900 ring-1 ring-rose-200 dark:bg-rose-950/40 dark:text-rose-100 dark:ring-rose-900">
            <p>{CATALOGUE_MESSAGES.error(query.error.message)}</p>
            <Button variant="outline" size="sm" className="mt-4" onClick={() => void query.refetch()}>
              <RotateCw className="size-4" aria-hidden /> Try again
            </Button>
          </div>
        ) : query.data.meditations.length === 0 || filter.shown.length === 0 ? (
          <Suspense fallback={null}>
            <ListingNotice message={query.data.meditations.length === 0 ? null : emptyListingMessage(filter.search, filter.length, filter.show)} onClear={filter.clear} />
          </Suspense>
        ) : (
          <>
            {filter.filtering ? (
              <p role="status" className="mb-4 text-sm text-stone-600 dark:text-stone-300">
                {SEARCH_MESSAGES.results(filter.shown.length, query.data.meditations.length)}
              </p>
            ) : null}
            <ul className="grid gap-5 sm:grid-cols-2 lg:grid-cols-3" data-testid="meditation-grid" data-visitors-order={!hydrated}>
              {filter.shown.map((meditation) => (
                <li key={meditation.id}>
                  <MeditationCard
                    ref={meditation.id === focusId ? focusRef : undefined}
                    meditation={meditation}
                    locked={!viewer.canListen && !meditation.free && viewer.status !== 'loading'}
                    mark={player.current?.id === meditation.id ? 'playing' : played.has(meditation.id) ? 'played' : undefined}
                    highlighted={meditation.id === focusId}
                    onSelect={onSelect}
                    saved={favourites.isSaved(meditation.id)}
                    onToggleFavourite={favourites.toggle}
                    onResume={player.current?.id === meditation.id ? undefined : onResume}
                    unavailable={unavailableReason({ online, downloaded: downloaded.has(meditation.id) }, OFFLINE_MESSAGES.needsConnection)}
                    extra={
                      viewer.signedIn ? (
                        <Suspense fallback={null}>
                          <DownloadControl meditation={meditation} />
                        </Suspense>
                      ) : null
                    }
                  />
                </li>
              ))}
            </ul>
          </>
        )}
      </section>

      {dialogFor ? (
        <Suspense fallback={null}>
          <SubscribeDialog open onOpenChange={(open) => !open && setDialogFor(null)} title={dialogFor.title} />
        </Suspense>
      ) : null}
    </div>
  );
}
