/**
 * "Try a free meditation" (issue 38, item 1): one tap from home to a free meditation playing, for a
 * visitor and for a signed-in person without a subscription (it took a long scroll past 23 locked
 * cards). The listing is read when tapped (from the cache when home or the catalogue already has it),
 * so home's first download and its first requests stay as they were.
 */
import Headphones from 'lucide-react/icons/headphones';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { catalogueApi, listingQueryKey } from '#shared/contracts/catalogue.routes.ts';
import { Button } from '#web/components/ui/button.tsx';
import { freeOnes, freePick } from '#web/features/home/free-pick.ts';
import { usePlayer } from '#web/features/player/player-context.tsx';
import { call } from '#web/lib/call.ts';
import { FRONT_DOOR_MESSAGES } from '#shared/front-door-messages.ts';
import { useOnline } from '#web/lib/use-online.ts';

export function TryFreeButton({ variant = 'primary' }: { variant?: 'primary' | 'secondary' }) {
  const client = useQueryClient();
  const player = usePlayer();
  const navigate = useNavigate();
  const online = useOnline();
  // Offline a stream cannot start: no button that would only fail.
  if (!online) return null;
  const play = async () => {
    try {
      // The same cache entry as the catalogue's listing (listingQueryKey); use-meditations.ts is not
      // imported here: its chunk holds the cards, which home does not show.
      const listing = await client.query({
        queryKey: listingQueryKey('all'),
        queryFn: ({ signal }) => call(catalogueApi.list, { query: { category: 'all' } }, { signal }),
        staleTime: 60_000,
      });
      const pick = freePick(listing.meditations, new Date().getHours());
      if (pick) {
        player.choose(pick, freeOnes(listing.meditations));
        return;
      }
    } catch (error) {
      console.warn('free meditation: listing unavailable', error);
    }
    // Nothing free could be found: the catalogue's free ones (or what it says about them).
    void navigate('/meditations/all?show=free');
  };
  return (
    <Button size="lg" variant={variant} onClick={() => void play()}>
      <Headphones className="size-5" aria-hidden /> {FRONT_DOOR_MESSAGES.tryFree}
    </Button>
  );
}
