/**
 * /shared/{id}#{key}: one journal entry someone shared (issue 36, item 5; decision 0050). No account,
 * no app chrome: the sealed entry is fetched, opened here with the key from the fragment (which never
 * leaves this page), and shown with the summary if one was included, nothing else about its author,
 * in a layout that prints cleanly. Not indexed, not cached, no Referer (the server's headers; the
 * meta tags too, for a copy of the page a service worker serves).
 */
import Printer from 'lucide-react/icons/printer';
import { useEffect, useState } from 'react';
import { useParams } from 'react-router';
import { journalShareApi } from '#shared/contracts/journal-share.routes.ts';
import type { ReplyOf } from '#shared/contracts/route.ts';
import { parseSharedPayload, SHARE_MESSAGES as M, type SharedPayload, type ShareSummary } from '#shared/journal-share.ts';
import { Button } from '#web/components/ui/button.tsx';
import { EntryBody, entryLabel } from '#web/features/journal/journal-entries.tsx';
import { keyFromHash, openShare, ShareKeyError } from '#web/features/journal/journal-share-crypto.ts';
import { ApiError } from '#web/lib/api.ts';
import { call } from '#web/lib/call.ts';
import { usePageTitle } from '#web/lib/use-page-title.ts';

type State = { status: 'loading' } | { status: 'open'; payload: SharedPayload } | { status: 'problem'; message: string };

/** Adds `<meta name=… content=…>` while the page is shown. */
function useMeta(name: string, content: string) {
  useEffect(() => {
    const meta = document.createElement('meta');
    meta.name = name;
    meta.content = content;
    document.head.append(meta);
    return () => meta.remove();
  }, [name, content]);
}

async function openLink(id: string, key: string): Promise<State> {
  // Without its key the link cannot open anything: nothing is fetched, and no view is counted.
  if (!key) return { status: 'problem', message: M.noKey };
  let sealed: ReplyOf<typeof journalShareApi.read>;
  try {
    sealed = await call(journalShareApi.read, { params: { id } });
  } catch (error) {
    if (error instanceof ApiError && (error.status === 404 || error.status === 400)) return { status: 'problem', message: M.unavailable };
    return { status: 'problem', message: error instanceof ApiError ? error.message : M.unavailable };
  }
  try {
    const payload = parseSharedPayload(await openShare(key, sealed));
    return payload ? { status: 'open', payload } : { status: 'problem', message: M.wrongKey };
  } catch (error) {
    return { status: 'problem', message: error instanceof ShareKeyError && error.reason === 'missing' ? M.noKey : M.wrongKey };
  }
}

export function SharedEntryPage() {
  usePageTitle(M.pageTitle);
  useMeta('robots', 'noindex, nofollow');
  useMeta('referrer', 'no-referrer');
  const { shareId = '' } = useParams();
  const [state, setState] = useState<State>({ status: 'loading' });

  useEffect(() => {
    let current = true;
    void openLink(shareId, keyFromHash(window.location.hash)).then((next) => {
      if (current) setState(next);
    });
    return () => {
      current = false;
    };
  }, [shareId]);

  useEffect(() => {
    // The journeys wait for the page to be live (the app's layout marks it; this page has none).
    document.documentElement.dataset.live = 'true';
  }, []);

  return (
    <main id="main" className="mx-auto max-w-2xl px-4 py-10 text-stone-900 sm:px-6 print:max-w-none print:p-0 dark:text-stone-50 print:dark:text-stone-900">
      <p className="text-sm font-semibold tracking-wide text-teal-800 uppercase dark:text-teal-200 print:text-stone-700">Harbour Mind</p>
      <h1 className="mt-2 font-serif text-3xl font-semibold sm:text-4xl">{M.pageTitle}</h1>
      {state.status === 'loading' ? (
        <p role="status" className="mt-6 text-stone-600 dark:text-stone-300">
          {M.loading}
        </p>
      ) : state.status === 'problem' ? (
        <p role="alert" className="mt-6 rounded-3xl bg-stone-100 p-6 text-lg text-stone-800 dark:bg-stone-900 dark:text-stone-100">
          {state.message}
        </p>
      ) : (
        <>
          <p className="mt-3 text-stone-600 dark:text-stone-300 print:text-stone-700">{M.pageIntro}</p>
          <article aria-labelledby="shared-entry-label" className="mt-6 rounded-3xl bg-white p-6 ring-1 ring-stone-200 print:p-0 print:ring-0 dark:bg-stone-900 dark:ring-stone-800 print:dark:bg-white">
            <h2 id="shared-entry-label" className="text-sm font-medium text-teal-800 dark:text-teal-200 print:text-stone-700">
              {entryLabel(state.payload.entry)}
            </h2>
            <EntryBody entry={state.payload.entry} />
          </article>
          {state.payload.summary ? <Summary summary={state.payload.summary} /> : null}
          <div className="mt-8 print:hidden">
            <Button variant="outline" onClick={() => window.print()}>
              <Printer className="size-4" aria-hidden /> {M.print}
            </Button>
          </div>
        </>
      )}
    </main>
  );
}

const day = (key: string) => new Date(`${key}T12:00:00`).toLocaleDateString('en-GB', { day: 'numeric', month: 'long', year: 'numeric' });

function Summary({ summary: s }: { summary: ShareSummary }) {
  const figures: [string, string][] = [
    ['Entries', String(s.entries)],
    ['Days with an entry', `${s.daysWritten} of 30`],
    ['Mindfulness · CBT · DBT', `${s.byType.mindfulness} · ${s.byType.cbt} · ${s.byType.dbt}`],
    ['Average mood', s.averageMood === null ? 'not recorded' : `${s.averageMood} / 10`],
    ['Average emotion intensity (DBT)', s.averageIntensity === null ? 'not recorded' : `${s.averageIntensity} / 10`],
  ];
  return (
    <section aria-labelledby="shared-summary" className="mt-6 rounded-3xl bg-white p-6 ring-1 ring-stone-200 print:p-0 print:ring-0 dark:bg-stone-900 dark:ring-stone-800 print:dark:bg-white">
      <h2 id="shared-summary" className="font-serif text-xl font-semibold">
        {M.summaryHeading}
      </h2>
      <p className="mt-1 text-sm text-stone-600 dark:text-stone-300 print:text-stone-700">
        {day(s.from)} to {day(s.to)}
      </p>
      <dl className="mt-4 grid gap-3 sm:grid-cols-2">
        {figures.map(([label, value]) => (
          <div key={label}>
            <dt className="text-sm text-stone-500 dark:text-stone-400">{label}</dt>
            <dd className="font-serif text-xl font-semibold">{value}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
