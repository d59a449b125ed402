/**
 * /subscribe. Plans and checkout arrive with the billing issue; until then the page says so
 * plainly. Signed-out visitors get the sign-in dialog first (spec), and signing in there goes home.
 */
import { Sparkles } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { PRICES_GBP, TRIAL_DAYS } from '#shared/constants.ts';
import { Button, buttonClasses } from '#web/components/ui/button.tsx';
import { AuthDialog } from '#web/features/auth/auth-dialog.tsx';
import { useViewer } from '#web/features/auth/use-viewer.ts';

export function SubscribePage() {
  const viewer = useViewer();
  const navigate = useNavigate();
  const [dialogOpen, setDialogOpen] = useState(false);

  useEffect(() => {
    document.title = 'Subscribe · Harbour Mind';
  }, []);
  useEffect(() => {
    if (viewer.status === 'signed-out') setDialogOpen(true);
  }, [viewer.status]);

  return (
    <div className="mx-auto flex max-w-2xl flex-col items-center px-4 py-20 text-center">
      <Sparkles className="size-10 text-amber-500" aria-hidden />
      <h1 className="mt-6 font-serif text-4xl font-semibold text-stone-900 sm:text-5xl dark:text-stone-50">Unlock Your Full Potential</h1>
      <p className="mt-5 text-lg leading-relaxed text-stone-600 dark:text-stone-300">
        Start with a {TRIAL_DAYS}-day free trial, then £{PRICES_GBP.monthly} a month or £{PRICES_GBP.yearly} a year. Online subscriptions are opening very soon; we
        will let you know the moment they do.
      </p>
      <div className="mt-8 flex flex-wrap justify-center gap-3">
        {viewer.signedIn ? null : <Button onClick={() => setDialogOpen(true)}>Sign in or create an account</Button>}
        <Link to="/meditations" className={buttonClasses({ variant: 'secondary' })}>
          Browse meditations
        </Link>
      </div>
      <AuthDialog open={dialogOpen} onOpenChange={setDialogOpen} onSignedIn={() => navigate('/', { replace: true })} />
    </div>
  );
}
