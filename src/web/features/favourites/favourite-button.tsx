import Heart from 'lucide-react/icons/heart';
import type { MeditationCard } from '#shared/contracts/catalogue.ts';
import { useToggleFavourite } from '#web/features/favourites/use-favourites.ts';

/**
 * The heart: a toggle button with a state screen readers announce (aria-pressed). Lists hold the
 * favourites once and pass each card its state (FavouriteToggle); a lone heart asks for itself.
 */
export function FavouriteButton({ meditation, className = '' }: { meditation: MeditationCard; className?: string }) {
  const { isSaved, toggle } = useToggleFavourite();
  return <FavouriteToggle meditation={meditation} saved={isSaved(meditation.id)} onToggle={toggle} className={className} />;
}

export function FavouriteToggle({
  meditation,
  saved,
  onToggle,
  className = '',
}: {
  meditation: MeditationCard;
  saved: boolean;
  onToggle: (meditation: MeditationCard) => void;
  className?: string;
}) {
  return (
    <button
      type="button"
      aria-pressed={saved}
      aria-label={saved ? `Remove ${meditation.title} from favourites` : `Save ${meditation.title} to favourites`}
      title={saved ? 'Remove from favourites' : 'Save to favourites'}
      data-testid="favourite-button"
      onClick={(event) => {
        event.stopPropagation();
        onToggle(meditation);
      }}
      className={`inline-flex size-10 shrink-0 items-center justify-center rounded-full text-stone-500 transition hover:bg-rose-50 hover:text-rose-600 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-teal-600 dark:text-stone-400 dark:hover:bg-rose-950/40 dark:hover:text-rose-300 ${className}`}
    >
      <Heart className={`size-5 ${saved ? 'fill-rose-500 text-rose-500 dark:fill-rose-400 dark:text-rose-400' : ''}`} aria-hidden />
    </button>
  );
}
