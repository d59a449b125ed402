/**
 * /subscribe: what Premium includes, the plan toggle and price, the trial button, sign-in for
 * existing members and the FAQ. Signed-out visitors get the sign-in dialog first.
 */
import Check from 'lucide-react/icons/check';
import Crown from 'lucide-react/icons/crown';
import LoaderCircle from 'lucide-react/icons/loader-circle';
import Sparkles from 'lucide-react/icons/sparkles';
import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { toast } from '#web/lib/toast.ts';
import { BILLING_MESSAGES, isPlan, PLAN_DETAILS, type Plan } from '#shared/billing.ts';
import { safeNextPath, TRIAL_INTENT_PARAM, trialIntentPath } from '#shared/next-path.ts';
import { PRICES_GBP, TRIAL_DAYS } from '#shared/constants.ts';
import { Accordion, AccordionItem } from '#web/components/ui/accordion.tsx';
import { Button } from '#web/components/ui/button.tsx';
import { useViewer } from '#web/features/auth/use-viewer.ts';
import { useWhenKnown } from '#web/lib/use-when-known.ts';
import type { AuthMode } from '#web/features/auth/auth-form.tsx';
import { startCheckout, useSubscription } from '#web/features/billing/use-subscription.ts';
import { ApiError } from '#web/lib/api.ts';
import { useHydrated } from '#web/lib/hydration.tsx';
import { usePageTitle } from '#web/lib/use-page-title.ts';
import { loadAuthDialog } from '#web/lazy-chunks.ts';
import { platform } from '#web/platform/platform.ts';

const AuthDialog = lazy(() => loadAuthDialog().then((m) => ({ default: m.AuthDialog })));
/** Inside the apps the store sells (issue 19, item 4); the web never loads this. */
const StoreOffer = lazy(() => import('#web/features/billing/store-offer.tsx').then((m) => ({ default: m.StoreOffer })));

const FEATURES = [
  'The full library of guided meditations',
  'New meditations added every month',
  'Sleep & Rest practices for calmer nights',
  'Morning meditations to start the day gently',
  'Meditations for chronic conditions, including endometriosis and fibromyalgia',
  'Support for anxious moments and big feelings',
  'Significant Chapters: birthdays, beginnings and transitions',
  'Offline downloads for listening anywhere',
  'Save favourites and see your practice grow',
  'A private journal with mindfulness, CBT and DBT prompts',
];

const FAQ = [
  {
    q: 'Which plans are there?',
    a: `Monthly at £${PRICES_GBP.monthly} or yearly at £${PRICES_GBP.yearly} (you save £${PRICES_GBP.yearlySaving} compared with paying monthly for a year). New subscribers start with a ${TRIAL_DAYS}-day free trial.`,
  },
  { q: 'Can I cancel at any time?', a: "Yes. Cancel from Account › Settings. If you cancel during the trial you won't be charged; otherwise you keep access until the end of the period you've paid for." },
  { q: 'Is my payment secure?', a: 'Payments are handled by Stripe on the web and by Apple on iOS. We never see or store your card number.' },
  {
    q: 'How is Harbour Mind different from other apps?',
    a: 'It was created by a doctor working in mental health, for real lives: hard chapters, long-term illness and ordinary days. No streak pressure, no endless feeds: calm practices, a private journal and routines you shape yourself.',
  },
];

/**
 * /subscribe, and /sign-up too (spec: 'The same screen (sign-up and subscribe)'): /sign-up opens
 * the account dialog on Sign Up over the plans, so a visitor meets one sign-up, not two.
 */
export function SubscribePage({ openOn }: { openOn?: AuthMode } = {}) {
  const viewer = useViewer();
  const navigate = useNavigate();
  const subscription = useSubscription(viewer.signedIn);
  const [params, setParams] = useSearchParams();
  // ?start=<plan>: someone chose a trial before they had an account; it starts once they are signed in.
  const requested = params.get(TRIAL_INTENT_PARAM);
  const intent = isPlan(requested) ? requested : null;
  const [plan, setPlan] = useState<Plan>(intent ?? 'yearly');
  // /sign-up?next=…: where a visitor was (e.g. the card they tried to save) before creating an account.
  const returnTo = safeNextPath(params.get('next'));
  // Signed out: null (closed) or the tab the account dialog opens on.
  const [dialogMode, setDialogMode] = useState<AuthMode | null>(viewer.signedIn ? null : intent ? 'signup' : (openOn ?? null));
  const dialogOpen = dialogMode !== null;
  const setDialogOpen = (open: boolean) => setDialogMode(open ? 'signin' : null);
  // Whether the open dialog is the way into a trial (then signing in continues to checkout).
  const [trialIntent, setTrialIntent] = useState<Plan | null>(intent);
  const [pending, setPending] = useState(false);
  // The prepared page is the web's: inside the apps the store's offer replaces it once React has adopted it.
  const purchases = useHydrated() ? platform().purchases : undefined;

  usePageTitle('Subscribe');

  const trialUsed = viewer.signedIn && subscription.data ? !subscription.data.trialEligible : false;
  const alreadySubscribed = Boolean(subscription.data?.subscribed);

  // A tap before /api/me answers waits for it (the prepared page paints the button first): a person
  // already signed in goes to checkout, not to the sign-up dialog.
  const subscribe = useWhenKnown(viewer.status !== 'loading', async (chosen: Plan = plan) => {
    // Someone starting a trial is most likely new here: the dialog opens on Sign Up, and the trial
    // they chose is kept through sign-up, the e-mail link and sign-in.
    if (!viewer.signedIn) {
      setTrialIntent(chosen);
      setDialogMode('signup');
      return;
    }
    if (pending) return;
    setPending(true);
    try {
      const result = await startCheckout(chosen);
      if (result.notice) toast.info(result.notice);
      if (/^https?:/.test(result.url)) window.location.assign(result.url);
      else void navigate(result.url);
    } catch (error) {
      toast.error(error instanceof ApiError ? error.message : BILLING_MESSAGES.genericError);
    } finally {
      setPending(false);
    }
  });

  // Signed in with a trial intent: go on to checkout once (the intent leaves the address first, so
  // going back or reloading does not start a second checkout).
  const intentTaken = useRef(false);
  const readyForIntent = Boolean(intent && viewer.signedIn && subscription.data);
  useEffect(() => {
    if (!readyForIntent || !intent || intentTaken.current) return;
    intentTaken.current = true;
    setParams((current) => {
      current.delete(TRIAL_INTENT_PARAM);
      return current;
    }, { replace: true });
    // Starting the checkout is the effect (a request, then leaving for the payment page); its
    // pending flag is state only so the button shows it.
    if (!subscription.data?.subscribed) subscribe(intent);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- runs once per intent, with this render's plan and subscription
  }, [readyForIntent]);

  return (
    <div className="mx-auto max-w-6xl px-4 py-12 sm:px-6 sm:py-16">
      <header className="mx-auto max-w-2xl text-center">
        <Sparkles className="mx-auto size-9 text-amber-500" aria-hidden />
        <h1 className="mt-4 font-serif text-4xl font-semibold tracking-tight text-stone-900 sm:text-5xl dark:text-stone-50">Unlock Your Full Potential</h1>
        <p className="mt-4 text-lg text-stone-600 dark:text-stone-300">Everything in Harbour Mind, for every kind of day. Start with {TRIAL_DAYS} days free.</p>
      </header>

      <div className="mt-12 grid gap-8 lg:grid-cols-[1fr_1.1fr]">
        <section aria-labelledby="included-heading" className="rounded-3xl bg-white p-6 ring-1 ring-stone-200 sm:p-8 dark:bg-stone-900 dark:ring-stone-800">
          <h2 id="included-heading" className="font-serif text-2xl font-semibold text-stone-900 dark:text-stone-50">
            What's included
          </h2>
          <ul className="mt-5 grid gap-3">
            {FEATURES.map((feature) => (
              <li key={feature} className="flex gap-3 text-stone-700 dark:text-stone-300">
                <Check className="mt-0.5 size-5 shrink-0 text-teal-600 dark:text-teal-300" aria-hidden />
                {feature}
              </li>
            ))}
          </ul>
        </section>

        {/* The offer comes first on a phone (the price and the button, not ten features, above the fold). */}
        <div className="order-first grid content-start gap-6 lg:order-none">
          <section aria-labelledby="premium-heading" className="rounded-3xl bg-gradient-to-br from-teal-700 to-teal-900 p-6 text-white shadow-xl sm:p-8 dark:from-teal-800 dark:to-stone-900">
            <h2 id="premium-heading" className="flex items-center gap-2 font-serif text-2xl font-semibold">
              <Crown className="size-6 text-amber-300" aria-hidden /> Premium Access
            </h2>
            {/* Inside the apps the store's plans and prices replace the toggle and checkout (on iOS the spec hides the toggle). */}
            {purchases && !alreadySubscribed ? (
              <Suspense fallback={null}>
                <StoreOffer purchases={purchases} signedIn={viewer.signedIn} onNeedAccount={() => setDialogMode('signup')} onNeedSignIn={() => setDialogMode('signin')} />
              </Suspense>
            ) : (
              <>
                <div role="radiogroup" aria-label="Billing period" className="mt-6 grid grid-cols-2 rounded-full bg-white/10 p-1">
                  {(['monthly', 'yearly'] as const).map((value) => (
                    <button
                      key={value}
                      type="button"
                      role="radio"
                      aria-checked={plan === value}
                      onClick={() => setPlan(value)}
                      // In dark mode a white pill would outshine the trial button: the choice is marked more quietly.
                      className={`h-10 rounded-full text-sm font-medium transition ${plan === value ? 'bg-white text-teal-900 dark:bg-white/20 dark:text-white dark:ring-1 dark:ring-white/50' : 'text-white/80 hover:text-white'}`}
                    >
                      {value === 'monthly' ? 'Monthly' : 'Yearly'}
                    </button>
                  ))}
                </div>
                <p className="mt-6 text-4xl font-semibold" aria-live="polite" data-testid="price">
                  {PLAN_DETAILS[plan].priceText}
                </p>
                <p className="mt-2 min-h-6 text-teal-100">{plan === 'yearly' ? `Save £${PRICES_GBP.yearlySaving} a year compared with monthly` : 'Cancel any time'}</p>
                {trialUsed && !alreadySubscribed ? (
                  <p className="mt-4 rounded-2xl bg-white/10 px-4 py-3 text-sm" role="note">
                    {BILLING_MESSAGES.repeatTrial}
                  </p>
                ) : null}
                {alreadySubscribed ? (
                  <Button variant="secondary" size="lg" className="mt-6 w-full" onClick={() => void navigate('/account')}>
                    You're subscribed: manage in your account
                  </Button>
                ) : (
                  <Button variant="secondary" size="lg" className="mt-6 w-full" onClick={() => subscribe(undefined)} disabled={pending} aria-busy={pending}>
                    {pending ? <LoaderCircle className="size-5 animate-spin" aria-hidden /> : null}
                    {trialUsed ? `Subscribe for ${PLAN_DETAILS[plan].priceText}` : 'Start 7-day free trial'}
                  </Button>
                )}
                <p className="mt-3 text-center text-xs text-teal-100">
                  {subscription.data?.mode === 'sandbox'
                    ? 'Sandbox mode: no real payment is taken.'
                    : subscription.data?.mode === 'none'
                      ? 'Subscriptions are available in the Harbour Mind app for iPhone and iPad.'
                      : 'Secure payment by Stripe.'}
                </p>
              </>
            )}
          </section>

          {/* Until the session is known (the prepared page, hydration) the card keeps its room unseen,
              so the features below do not jump when it appears for a visitor (CLS, issue 15). */}
          {viewer.status !== 'signed-in' && purchases?.store !== 'app_store' ? (
            <section
              aria-labelledby="member-heading"
              className={`flex flex-wrap items-center justify-between gap-4 rounded-3xl bg-white p-6 ring-1 ring-stone-200 dark:bg-stone-900 dark:ring-stone-800 ${viewer.status === 'loading' ? 'invisible' : ''}`}
            >
              <div>
                <h2 id="member-heading" className="font-semibold text-stone-900 dark:text-stone-50">
                  Already have an account?
                </h2>
                <p className="text-sm text-stone-600 dark:text-stone-300">Sign in to continue your practice.</p>
              </div>
              <Button variant="outline" onClick={() => setDialogOpen(true)}>
                Sign In
              </Button>
            </section>
          ) : null}
        </div>
      </div>

      <section aria-labelledby="faq-heading" className="mx-auto mt-16 max-w-3xl">
        <h2 id="faq-heading" className="font-serif text-2xl font-semibold text-stone-900 dark:text-stone-50">
          Questions
        </h2>
        <div className="mt-5">
          <Accordion>
            {FAQ.map((item) => (
              <AccordionItem key={item.q} title={item.q}>
                <p className="leading-relaxed text-stone-600 dark:text-stone-300">{item.a}</p>
              </AccordionItem>
            ))}
          </Accordion>
        </div>
      </section>

      {dialogOpen ? (
        <Suspense fallback={null}>
          <AuthDialog
            open
            initialMode={dialogMode}
            next={trialIntent ? trialIntentPath(trialIntent) : returnTo}
            onOpenChange={(open) => {
              setDialogOpen(open);
              if (!open) setTrialIntent(null);
            }}
            onSignedIn={() => void navigate(trialIntent ? trialIntentPath(trialIntent) : (returnTo ?? '/'), { replace: true })}
          />
        </Suspense>
      ) : null}
    </div>
  );
}
