import { Hourglass } from 'lucide-react';
import { useEffect } from 'react';
import { Link } from 'react-router';
import { buttonClasses } from '#web/components/ui/button.tsx';

/**
 * Honest placeholder for screens whose issue is still open (accounts, billing, journal, routines,
 * waitlist, admin): navigation works and the user is told plainly that the screen is not ready.
 */
export function ComingSoonPage({ title }: { title: string }) {
  useEffect(() => {
    document.title = `${title} · Harbour Mind`;
  }, [title]);
  return (
    <div className="mx-auto flex max-w-xl flex-col items-center px-4 py-24 text-center">
      <Hourglass className="size-10 text-teal-700 dark:text-teal-300" aria-hidden />
      <h1 className="mt-6 font-serif text-4xl font-semibold text-stone-900 dark:text-stone-50">{title}</h1>
      <p className="mt-4 leading-relaxed text-stone-600 dark:text-stone-300">
        This part of Harbour Mind isn't open yet. We're building it with care and it will be here soon. In the meantime, you can explore the meditation library.
      </p>
      <Link to="/meditations" className={buttonClasses({ className: 'mt-8' })}>
        Browse meditations
      </Link>
    </div>
  );
}
