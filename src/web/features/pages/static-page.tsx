/** Layout for the founder note, about, support and policy pages: one h1, a readable prose column. */
import { type ReactNode } from 'react';
import { currentVersion, POLICY_VERSIONS, type Policy } from '#web/features/pages/policy-versions.ts';
import { usePageTitle } from '#web/lib/use-page-title.ts';

const PROSE =
  'text-stone-700 dark:text-stone-300 [&_p]:mb-4 [&_p]:leading-relaxed [&_ul]:mb-4 [&_ul]:list-disc [&_ul]:space-y-1.5 [&_ul]:pl-6 [&_li]:leading-relaxed [&_a]:font-medium [&_a]:text-teal-700 [&_a]:underline [&_a]:underline-offset-4 dark:[&_a]:text-teal-300 [&_strong]:text-stone-900 dark:[&_strong]:text-stone-50';

/**
 * `policy`: a legal page, dated by its newest version (policy-versions.ts) and followed by what changed
 * in each version. The date and the history are marked `data-policy-meta`: they are not the policy's words.
 */
export function StaticPage({ title, intro, policy, children }: { title: string; intro?: ReactNode; policy?: Policy; children: ReactNode }) {
  usePageTitle(title);
  return (
    <article className="mx-auto max-w-3xl px-4 py-12 sm:px-6 sm:py-16">
      <header className="mb-10">
        <h1 className="font-serif text-4xl font-semibold tracking-tight text-stone-900 sm:text-5xl dark:text-stone-50">{title}</h1>
        {policy ? (
          <p data-policy-meta="" className="mt-3 text-sm text-stone-500 dark:text-stone-400">
            Last updated {currentVersion(policy).date}
          </p>
        ) : null}
        {intro ? <p className="mt-5 text-lg leading-relaxed text-stone-600 dark:text-stone-300">{intro}</p> : null}
      </header>
      <div className={PROSE}>{children}</div>
      {policy ? <PolicyHistory policy={policy} /> : null}
    </article>
  );
}

/** Every version, newest first, with what it changed. */
function PolicyHistory({ policy }: { policy: Policy }) {
  return (
    <section data-policy-meta="" aria-labelledby="policy-history" className="mt-12 border-t border-stone-200 pt-8 text-sm text-stone-600 dark:border-stone-800 dark:text-stone-300">
      <h2 id="policy-history" className="mb-3 font-serif text-xl font-semibold text-stone-900 dark:text-stone-50">
        What changed
      </h2>
      <dl className="grid gap-3">
        {[...POLICY_VERSIONS[policy]].reverse().map((version) => (
          <div key={version.date}>
            <dt className="font-semibold text-stone-800 dark:text-stone-100">{version.date}</dt>
            {version.changes.map((change) => (
              <dd key={change} className="mt-1">
                {change}
              </dd>
            ))}
          </div>
        ))}
      </dl>
    </section>
  );
}

export function PolicySection({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section aria-labelledby={id}>
      <h2 id={id} className="mb-3 mt-10 font-serif text-2xl font-semibold text-stone-900 dark:text-stone-50">
        {title}
      </h2>
      {children}
    </section>
  );
}

/** A gently highlighted card inside a page (safety notes, contact details). */
export function NoteCard({ children, tone = 'teal' }: { children: ReactNode; tone?: 'teal' | 'amber' }) {
  const colours = tone === 'amber' ? 'bg-amber-50 ring-amber-200 dark:bg-amber-950/40 dark:ring-amber-900' : 'bg-teal-50 ring-teal-200 dark:bg-teal-950/40 dark:ring-teal-900';
  return <div className={`my-6 rounded-3xl p-6 ring-1 [&_p:last-child]:mb-0 ${colours}`}>{children}</div>;
}
