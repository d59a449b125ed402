/**
 * Account › Favourites: saved meditations with Offline/Online badge, duration, saved date, Play,
 * download, and the two removals named for what each removes (the offline copy, or the favourite).
 */
import ArrowDownToLine from 'lucide-react/icons/arrow-down-to-line';
import Cloud from 'lucide-react/icons/cloud';
import CloudDownload from 'lucide-react/icons/cloud-download';
import Heart from 'lucide-react/icons/heart';
import Play from 'lucide-react/icons/play';
import RotateCw from 'lucide-react/icons/rotate-cw';
import Trash2 from 'lucide-react/icons/trash-2';
import { useState } from 'react';
import { Link } from 'react-router';
import type { MeditationCard } from '#shared/contracts/catalogue.ts';
import { FAVOURITES_MESSAGES } from '#shared/favourites-messages.ts';
import { CATALOGUE_MESSAGES } from '#shared/catalogue-messages.ts';
import { Button, buttonClasses } from '#web/components/ui/button.tsx';
import { ConfirmDialogFor } from '#web/components/ui/confirm-dialog.tsx';
import { Spinner } from '#web/components/ui/spinner.tsx';
import { useViewer } from '#web/features/auth/use-viewer.ts';
import { useDownloads } from '#web/features/downloads/use-downloads.ts';
import { useFavourites, useToggleFavourite } from '#web/features/favourites/use-favourites.ts';
import { usePlayer } from '#web/features/player/player-context.tsx';

const M = FAVOURITES_MESSAGES;
const savedDate = (iso: string) => new Date(iso).toLocaleDateString('en-GB', { day: 'numeric', month: 'short', year: 'numeric' });

export function FavouritesList() {
  const viewer = useViewer();
  const favourites = useFavourites();
  const { remove } = useToggleFavourite();
  const downloads = useDownloads();
  const player = usePlayer();
  const [confirming, setConfirming] = useState<MeditationCard | null>(null);

  if (!viewer.signedIn) return <p className="text-stone-600 dark:text-stone-300">{M.signInToAccess}</p>;
  if (favourites.isPending) return <Spinner label="Loading your favourites..." />;
  if (favourites.isError)
    return (
      <div role="alert">
        <p className="text-stone-700 dark:text-stone-200">Your favourites could not be loaded. {favourites.error.message}</p>
        <Button variant="outline" size="sm" className="mt-3" onClick={() => void favourites.refetch()}>
          <RotateCw className="size-4" aria-hidden /> Try again
        </Button>
      </div>
    );
  const list = favourites.data;
  if (list.length === 0)
    return (
      <div className="py-6 text-center">
        <Heart className="mx-auto size-10 text-rose-400" aria-hidden />
        <h2 className="mt-4 text-lg font-semibold text-stone-900 dark:text-stone-50">{M.empty}</h2>
        <p className="mx-auto mt-2 max-w-sm text-stone-600 dark:text-stone-300">{M.emptyBody}</p>
        <Link to="/meditations" className={buttonClasses({ className: 'mt-6', variant: 'secondary' })}>
          Browse meditations
        </Link>
      </div>
    );

  const queue = list.map((f) => f.meditation);
  return (
    <>
      <ul className="divide-y divide-stone-200 dark:divide-stone-800" aria-label="Saved meditations">
        {list.map(({ meditation, savedAt }) => {
          const offline = downloads.isOffline(meditation.id);
          const progress = downloads.progress[meditation.id];
          return (
            <li key={meditation.id} className="py-5 first:pt-0 last:pb-0" data-testid="favourite-item">
              <div className="flex flex-wrap items-start justify-between gap-3">
                <div className="min-w-0">
                  {/* h2: the page's heading is the h1 above the tabs (issue 38: axe heading-order with an h3 here). */}
                  <h2 className="font-serif text-lg font-semibold text-stone-900 dark:text-stone-50">{meditation.title}</h2>
                  <p className="mt-1 flex flex-wrap items-center gap-x-3 gap-y-1 text-sm text-stone-500 dark:text-stone-400">
                    <span
                      data-testid="favourite-badge"
                      className={`inline-flex items-center gap-1 rounded-full px-2 py-0.5 text-xs font-medium ${offline ? 'bg-teal-100 text-teal-900 dark:bg-teal-900 dark:text-teal-100' : 'bg-stone-100 text-stone-700 dark:bg-stone-800 dark:text-stone-200'}`}
                    >
                      {offline ? <ArrowDownToLine className="size-3" aria-hidden /> : <Cloud className="size-3" aria-hidden />}
                      {offline ? M.offline : M.online}
                    </span>
                    <span>{meditation.duration || M.unknownDuration}</span>
                    <span>Saved {savedDate(savedAt)}</span>
                  </p>
                </div>
                <div className="flex flex-wrap items-center gap-2">
                  <Button size="sm" onClick={() => (viewer.canListen ? player.choose(meditation, queue) : undefined)} disabled={!viewer.canListen} aria-label={`Play ${meditation.title}`}>
                    <Play className="size-4" aria-hidden /> Play
                  </Button>
                  {viewer.canListen && !offline ? (
                    <Button variant="outline" size="sm" disabled={progress !== undefined} onClick={() => downloads.download(meditation)} aria-label={`Download ${meditation.title} for offline listening`}>
                      <CloudDownload className="size-4" aria-hidden /> {progress !== undefined ? 'Downloading…' : 'Download'}
                    </Button>
                  ) : null}
                  {offline ? (
                    <Button variant="ghost" size="sm" onClick={() => void downloads.remove(meditation.id)} aria-label={`Delete download of ${meditation.title}`}>
                      Delete download
                    </Button>
                  ) : null}
                  <Button variant="ghost" size="sm" onClick={() => setConfirming(meditation)} aria-label={`Remove ${meditation.title} from favourites`}>
                    {/* The visible word begins its name (axe label-content-name-mismatch: 'Remove from favourites' is not in 'Remove {title} from favourites'). */}
                    <Trash2 className="size-4" aria-hidden /> Remove
                  </Button>
                </div>
              </div>
              {progress !== undefined ? (
                <div className="mt-3">
                  <div
                    role="progressbar"
                    aria-label={`Downloading ${meditation.title}`}
                    aria-valuemin={0}
                    aria-valuemax={100}
                    aria-valuenow={progress}
                    className="h-1.5 w-full overflow-hidden rounded-full bg-stone-200 dark:bg-stone-800"
                  >
                    <div className="h-full bg-teal-600 transition-[width] dark:bg-teal-400" style={{ width: `${progress}%` }} />
                  </div>
                </div>
              ) : null}
              {!viewer.canListen ? <p className="mt-2 text-sm text-amber-700 dark:text-amber-300">{CATALOGUE_MESSAGES.subscribeToListen}</p> : null}
            </li>
          );
        })}
      </ul>

      <ConfirmDialogFor
        subject={confirming}
        onClose={() => setConfirming(null)}
        title={M.removeConfirmTitle}
        description={confirming ? M.removeConfirmBody(confirming.title) : ''}
        confirmLabel="Remove"
        cancelLabel="Keep it"
        onConfirm={(favourite) => {
          remove(favourite);
          void downloads.remove(favourite.id);
        }}
      />
    </>
  );
}
