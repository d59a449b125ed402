/**
 * After the spec's 'Meditation Complete!' overlay: a calm summary where the mini player was
 * (issue 17, item 5). Today's practice (and the streak, for those who show it), a way to write about
 * it, and what comes next in the list. It blocks nothing: the page stays usable around it.
 * The one-tap mood check (for those whose journal saves entries) is kept nowhere on its own: it
 * goes into 'Write about it', so a mood is stored only as part of a journal entry the person saves
 * (the spec's save rules), on this device, and never sent to the server (decision 0029).
 * The layout hands it the player's summary and actions: importing the player's context here would
 * make this lazy chunk depend on the app's own, and rolldown would split the app to break the loop
 * (+0.9 KB on every first load, measured).
 */
import ArrowRight from 'lucide-react/icons/arrow-right';
import NotebookPen from 'lucide-react/icons/notebook-pen';
import X from 'lucide-react/icons/x';
import { useRef, useState } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import { withNext } from '#shared/next-path.ts';
import { Button } from '#web/components/ui/button.tsx';
import { useViewer } from '#web/features/auth/use-viewer.ts';
import type { PlayerState } from '#web/features/player/player-machine.ts';
import { journalAboutPath } from '#web/features/journal/journal-links.ts';
import { usePractice } from '#web/features/practice/use-practice.ts';
import { useBottomBar } from '#web/features/player/use-bottom-bar.ts';

export function SessionSummary({ summary, onUpNext, onDismiss }: { summary: NonNullable<PlayerState['summary']>; onUpNext: () => void; onDismiss: () => void }) {
  const viewer = useViewer();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const practice = usePractice(viewer.signedIn && !viewer.offline);
  const [mood, setMood] = useState<number | null>(null);
  const bar = useRef<HTMLElement>(null);
  useBottomBar(bar);

  const data = practice.data;
  const today = data?.week.find((day) => day.date === data.today);
  const streak = data?.showStreaks && data.currentStreak ? data.currentStreak : null;

  return (
    <section ref={bar} aria-label="Your session" data-testid="session-summary" className="fixed inset-x-0 bottom-0 z-40 border-t border-stone-200 bg-white/95 backdrop-blur dark:border-stone-800 dark:bg-stone-900/95">
      <div className="mx-auto flex max-w-6xl flex-col gap-3 px-4 py-3 sm:flex-row sm:items-center sm:gap-6 sm:px-6">
        <div className="min-w-0 sm:flex-1">
          <p className="truncate font-serif text-lg font-semibold text-stone-900 dark:text-stone-50">{summary.title}</p>
          <p className="text-sm text-stone-600 dark:text-stone-300" data-testid="session-summary-practice">
            {viewer.signedIn ? (
              today ? (
                <>
                  Today: {today.minutes > 0 ? `${today.minutes} min` : 'under a minute'} of practice{streak ? ` · ${streak}-day streak` : ''}
                </>
              ) : (
                'Your practice is saved to your account.'
              )
            ) : (
              <>
                <Link to={withNext('/sign-up', pathname)} className="font-medium text-teal-700 underline-offset-4 hover:underline dark:text-teal-300">
                  Create a free account
                </Link>{' '}
                to keep track of your practice.
              </>
            )}
          </p>
        </div>
        {viewer.canListen ? <MoodCheck mood={mood} onChoose={setMood} /> : null}
        <div className="flex items-center gap-2">
          <Button
            variant={mood === null ? 'outline' : 'primary'}
            size="sm"
            onClick={() => {
              onDismiss();
              void navigate(journalAboutPath(summary.title, mood));
            }}
          >
            <NotebookPen className="size-4" aria-hidden /> Write about it
          </Button>
          {summary.next ? (
            <Button size="sm" onClick={onUpNext} aria-label={`Up next: ${summary.next.title}`}>
              Up next <ArrowRight className="size-4" aria-hidden />
            </Button>
          ) : null}
          <button
            type="button"
            onClick={onDismiss}
            aria-label="Close summary"
            className="inline-flex size-9 items-center justify-center rounded-full text-stone-500 hover:bg-stone-100 hover:text-stone-800 dark:text-stone-400 dark:hover:bg-stone-800 dark:hover:text-stone-100"
          >
            <X className="size-5" aria-hidden />
          </button>
        </div>
      </div>
    </section>
  );
}

/** Five words on the journal's 1–10 mood scale, from heavy to bright. */
export const MOOD_CHOICES = [
  { mood: 2, label: 'Heavy' },
  { mood: 4, label: 'Unsettled' },
  { mood: 6, label: 'Okay' },
  { mood: 8, label: 'Calm' },
  { mood: 10, label: 'Bright' },
] as const;

function MoodCheck({ mood, onChoose }: { mood: number | null; onChoose: (mood: number) => void }) {
  return (
    <div role="group" aria-labelledby="mood-check-label" className="flex flex-wrap items-center gap-1.5">
      <span id="mood-check-label" className="mr-1 text-sm text-stone-600 dark:text-stone-300">
        How do you feel?
      </span>
      {MOOD_CHOICES.map((choice) => (
        <button
          key={choice.mood}
          type="button"
          aria-pressed={mood === choice.mood}
          onClick={() => onChoose(choice.mood)}
          className={`h-8 rounded-full px-3 text-sm font-medium ring-1 transition ${
            mood === choice.mood
              ? 'bg-teal-700 text-white ring-teal-700 dark:bg-teal-400 dark:text-stone-950 dark:ring-teal-400'
              : 'bg-white text-stone-700 ring-stone-200 hover:bg-stone-100 dark:bg-stone-900 dark:text-stone-200 dark:ring-stone-700 dark:hover:bg-stone-800'
          }`}
        >
          {choice.label}
        </button>
      ))}
      <span className="basis-full text-xs text-stone-600 empty:hidden dark:text-stone-300" aria-live="polite" data-testid="mood-note">
        {mood === null ? '' : 'Noted. Write about it to keep it in your journal.'}
      </span>
    </div>
  );
}
