/**
 * The end of a timed practice, the meditation timer's or the breathing guide's: a heading that takes
 * focus, what was done, what became of its record (or, for a visitor, the way to an account that
 * counts it), and the two ways on. One view for both, so they say the same things the same way.
 */
import type { ReactNode, RefObject } from 'react';
import { Link } from 'react-router';
import { practiceOutcomeWords, type PracticeOutcome } from '#shared/practice.ts';
import { withNext } from '#shared/next-path.ts';
import { Button, buttonClasses } from '#web/components/ui/button.tsx';

/** The page's one heading; the views move focus to it as they change. */
export function PracticeHeading({ headingRef, children }: { headingRef: RefObject<HTMLHeadingElement | null>; children: ReactNode }) {
  return (
    <h1 ref={headingRef} tabIndex={-1} className="font-serif text-3xl font-semibold tracking-tight text-stone-900 focus:outline-none sm:text-4xl dark:text-stone-50">
      {children}
    </h1>
  );
}

/** A visitor's way to an account that counts this practice: "Create a free account to count your sittings in your practice." */
export function AccountInvite({ path, counts }: { path: string; counts: string }) {
  return (
    <>
      <Link to={withNext('/sign-up', path)} className="font-medium text-teal-700 underline-offset-4 hover:underline dark:text-teal-300">
        Create a free account
      </Link>{' '}
      to count {counts} in your practice.
    </>
  );
}

type Props = {
  headingRef: RefObject<HTMLHeadingElement | null>;
  heading: string;
  /** 'You sat for 3 minutes.' */
  summary: string;
  what: 'sitting' | 'exercise';
  outcome: PracticeOutcome | null;
  partial: boolean;
  /** Where a visitor comes back to after making an account, and what it counts there ('your sittings'). */
  visitor: { path: string; counts: string };
  again: { label: string; onClick: () => void };
  testId: string;
};

export function PracticeFinished({ headingRef, heading, summary, what, outcome, partial, visitor, again, testId }: Props) {
  return (
    <section className="text-center">
      <PracticeHeading headingRef={headingRef}>{heading}</PracticeHeading>
      <p className="mt-3 text-lg text-stone-700 dark:text-stone-200">{summary}</p>
      <p className="mt-2 min-h-6 text-stone-600 dark:text-stone-300" role="status" data-testid={testId}>
        {outcome === 'visitor' ? (
          <AccountInvite {...visitor} />
        ) : outcome ? (
          practiceOutcomeWords(what, partial)[outcome]
        ) : null}
      </p>
      <div className="mt-8 flex flex-wrap justify-center gap-3">
        <Button size="lg" onClick={again.onClick}>
          {again.label}
        </Button>
        <Link to="/" className={buttonClasses({ size: 'lg', variant: 'outline' })}>
          Back to home
        </Link>
      </div>
    </section>
  );
}
