/** /account and /profile: Profile, Favourites and Settings tabs; signed-out visitors go to /sign-in. */
import CalendarHeart from 'lucide-react/icons/calendar-heart';
import LogOut from 'lucide-react/icons/log-out';
import Mail from 'lucide-react/icons/mail';
import { type ReactNode } from 'react';
import { Navigate, useSearchParams } from 'react-router';
import { Button } from '#web/components/ui/button.tsx';
import { Spinner } from '#web/components/ui/spinner.tsx';
import { Tabs, TabsBar, TabsContent } from '#web/components/ui/tabs.tsx';
import { useSignOut } from '#web/features/auth/use-sign-out.ts';
import { useSignInMethods, useViewer } from '#web/features/auth/use-viewer.ts';
import { AppearanceCard } from '#web/features/account/appearance-card.tsx';
import { YourDataCard } from '#web/features/account/your-data-card.tsx';
import { RemindersCard } from '#web/features/reminders/reminders-card.tsx';
import { MindfulMinutesCard } from '#web/features/mindful-minutes/mindful-minutes-card.tsx';
import { platform } from '#web/platform/platform.ts';
import { NameForm, PasswordForm, SessionsCard } from '#web/features/account/account-security.tsx';
import { CheckoutReturn } from '#web/features/billing/checkout-return.tsx';
import { SubscriptionCard } from '#web/features/billing/subscription-card.tsx';
import { FavouritesList } from '#web/features/favourites/favourites-list.tsx';
import { PracticeSummary } from '#web/features/practice/practice-summary.tsx';
import { usePageTitle } from '#web/lib/use-page-title.ts';

const TABS = [
  { value: 'profile', label: 'Profile' },
  { value: 'favourites', label: 'Favourites' },
  { value: 'settings', label: 'Settings' },
] as const;

const memberSince = (iso: string) => new Date(iso).toLocaleDateString('en-GB', { day: 'numeric', month: 'long', year: 'numeric' });

export function AccountPage() {
  const viewer = useViewer();
  const signOut = useSignOut();
  const methods = useSignInMethods();
  const [params] = useSearchParams();
  const returningFromCheckout = Boolean(params.get('session_id'));
  usePageTitle('Account');

  if (viewer.status === 'loading') return <Spinner label="Loading your account..." />;
  if (!viewer.user) return <Navigate to="/sign-in" replace />;
  const user = viewer.user;
  const mindfulMinutes = platform().mindfulMinutes;

  return (
    <div className="mx-auto max-w-3xl px-4 py-12 sm:px-6">
      <h1 className="font-serif text-4xl font-semibold tracking-tight text-stone-900 dark:text-stone-50">Your account</h1>
      <p className="mt-2 text-stone-600 dark:text-stone-300">Hello, {user.name}. This is your quiet corner of Harbour Mind.</p>
      <div className="mt-8">{returningFromCheckout ? <CheckoutReturn /> : null}</div>
      {/* ?tab=settings: where a reminder's "Reminders are off" notification and the service worker send people. */}
      <Tabs defaultValue={returningFromCheckout || params.get('tab') === 'settings' ? 'settings' : 'profile'}>
        <TabsBar label="Account sections" tabs={TABS} />

        <TabsContent value="profile" className="mt-6 space-y-6 focus:outline-none">
          <Card>
            <dl className="grid gap-5">
              <Row icon={<Mail className="size-5" aria-hidden />} term="Email" detail={user.email} />
              <Row icon={<CalendarHeart className="size-5" aria-hidden />} term="Member since" detail={memberSince(user.createdAt)} />
            </dl>
            <Button variant="outline" className="mt-8" onClick={() => void signOut('/')}>
              <LogOut className="size-4" aria-hidden /> Sign Out
            </Button>
          </Card>
          <Card>
            <PracticeSummary />
          </Card>
          <Card>
            <NameForm key={user.name} current={user.name} />
          </Card>
          {methods?.includes('credential') ? (
            <Card>
              <PasswordForm />
            </Card>
          ) : null}
          <Card>
            <SessionsCard />
          </Card>
        </TabsContent>

        <TabsContent value="favourites" className="mt-6 focus:outline-none">
          <Card>
            <FavouritesList />
          </Card>
        </TabsContent>

        <TabsContent value="settings" className="mt-6 space-y-6 focus:outline-none">
          <Card>
            <SubscriptionCard />
          </Card>
          <Card>
            <RemindersCard />
          </Card>
          {mindfulMinutes ? (
            <Card>
              <MindfulMinutesCard store={mindfulMinutes} />
            </Card>
          ) : null}
          <Card>
            <AppearanceCard />
          </Card>
          <Card>
            <YourDataCard />
          </Card>
        </TabsContent>
      </Tabs>
    </div>
  );
}

function Card({ children }: { children: ReactNode }) {
  return <section className="rounded-3xl bg-white p-6 ring-1 ring-stone-200 sm:p-8 dark:bg-stone-900 dark:ring-stone-800">{children}</section>;
}

function Row({ icon, term, detail }: { icon: ReactNode; term: string; detail: string }) {
  return (
    // A definition list's groups hold only their term and detail: the icon sits inside the term.
    <div className="relative min-h-10 pl-14">
      <dt className="text-sm text-stone-500 dark:text-stone-400">
        <span className="absolute left-0 top-0 inline-flex size-10 items-center justify-center rounded-full bg-teal-50 text-teal-800 dark:bg-teal-950 dark:text-teal-200">{icon}</span>
        {term}
      </dt>
      <dd className="font-medium text-stone-900 dark:text-stone-50">{detail}</dd>
    </div>
  );
}
