import Sparkles from 'lucide-react/icons/sparkles';
import { PLAYER_MESSAGES } from '#shared/player-messages.ts';
import { usePlayer } from '#web/features/player/player-context.tsx';

/** Spec: 'Meditation Complete!' for 3 s after a track ends; announced politely to screen readers. */
export function CompletionOverlay() {
  const { completed } = usePlayer();
  return (
    <div role="status" aria-live="polite" className="pointer-events-none fixed inset-0 z-[60] flex items-center justify-center p-6">
      {completed ? (
        <div data-testid="completion-overlay" className="max-w-sm rounded-3xl bg-white/95 p-8 text-center shadow-2xl ring-1 ring-teal-100 motion-safe:animate-fade-in dark:bg-stone-900/95 dark:ring-stone-700">
          <Sparkles className="mx-auto size-10 text-teal-600 dark:text-teal-300" aria-hidden />
          <p className="mt-4 font-serif text-2xl font-semibold text-stone-900 dark:text-stone-50">{PLAYER_MESSAGES.completeTitle}</p>
          <p className="mt-2 text-stone-600 dark:text-stone-300">{PLAYER_MESSAGES.completeBody}</p>
        </div>
      ) : null}
    </div>
  );
}
