/**
 * /programmes (issue 37, item 2; decision 0051): the published courses in the admin's order, each a
 * link that names its length ("7 days"), with a cover from the catalogue's artwork. Loading, empty and
 * error states; the list is a list for screen readers, each link one stop for the keyboard.
 */
import CalendarDays from 'lucide-react/icons/calendar-days';
import { Link } from 'react-router';
import { daysLabel, PROGRAMME_MESSAGES as M, programmeDayLine, programmePath } from '#shared/programmes.ts';
import { Button } from '#web/components/ui/button.tsx';
import { Spinner } from '#web/components/ui/spinner.tsx';
import { useMyProgrammes, useProgrammes } from '#web/features/programmes/use-programmes.ts';
import { usePageTitle } from '#web/lib/use-page-title.ts';

export function ProgrammesPage() {
  usePageTitle(M.heading);
  const list = useProgrammes();
  const mine = useMyProgrammes();
  const started = new Map((mine.data?.enrolments ?? []).map((e) => [e.slug, e]));

  return (
    <div className="mx-auto max-w-5xl px-4 py-12 sm:px-6">
      <h1 className="font-serif text-4xl font-semibold tracking-tight text-stone-900 sm:text-5xl dark:text-stone-50">{M.heading}</h1>
      <p className="mt-3 max-w-2xl text-lg text-stone-600 dark:text-stone-300">{M.intro}</p>

      <div className="mt-8">
        {list.isPending ? (
          <Spinner label="Loading programmes..." />
        ) : list.isError ? (
          <div role="alert" className="rounded-3xl bg-white p-6 ring-1 ring-stone-200 dark:bg-stone-900 dark:ring-stone-800">
            <p className="text-stone-700 dark:text-stone-200">{M.loadFailed}</p>
            <Button variant="secondary" className="mt-4" onClick={() => void list.refetch()}>
              Try again
            </Button>
          </div>
        ) : list.data.programmes.length === 0 ? (
          <p className="rounded-3xl bg-white p-6 text-stone-600 ring-1 ring-stone-200 dark:bg-stone-900 dark:text-stone-300 dark:ring-stone-800">{M.empty}</p>
        ) : (
          <ul className="grid gap-4 sm:grid-cols-2">
            {list.data.programmes.map((programme) => {
              const progress = started.get(programme.slug);
              return (
                <li key={programme.id}>
                  <Link
                    to={programmePath(programme.slug)}
                    className="flex h-full flex-col overflow-hidden rounded-3xl bg-white ring-1 ring-stone-200 transition hover:-translate-y-0.5 hover:shadow-lg dark:bg-stone-900 dark:ring-stone-800"
                  >
                    <span aria-hidden data-art={programme.cover} className="card-art block h-24 dark:opacity-85" />
                    <span className="flex flex-1 flex-col gap-2 p-6">
                      <span className="font-serif text-2xl font-semibold text-stone-900 dark:text-stone-50">{programme.title}</span>
                      <span className="text-stone-600 dark:text-stone-300">{programme.description}</span>
                      <span className="mt-auto inline-flex items-center gap-2 pt-2 text-sm font-medium text-teal-800 dark:text-teal-200">
                        <CalendarDays className="size-4" aria-hidden /> {daysLabel(programme.dayCount)}
                        {progress ? <span className="text-stone-600 dark:text-stone-300">· {progress.finished ? M.dayDone : programmeDayLine(progress.current ?? progress.dayCount, progress.dayCount)}</span> : null}
                      </span>
                    </span>
                  </Link>
                </li>
              );
            })}
          </ul>
        )}
      </div>
    </div>
  );
}
