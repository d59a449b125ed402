/**
 * Page routes. Every screen is its own chunk, loaded when visited (a page the server prepared is
 * already on screen meanwhile), so the first download stays small; home too, so the catalogue and
 * subscribe pages do not carry it (issue 15).
 * Keep in step with src/shared/routes.ts (the server's list of known pages; a test checks) and
 * src/shared/prerender.ts (the pages the server prepares).
 */
import { lazy, Suspense } from 'react';
import type { RouteObject } from 'react-router';
import { AppLayout } from '#web/features/layout/app-layout.tsx';
import { loadHomePage, loadMeditationsPage } from '#web/lazy-chunks.ts';

// Prefetched once the page is idle (lazy-chunks.ts), so Home opens without the network too.
const HomePage = lazy(() => loadHomePage().then((m) => ({ default: m.HomePage })));
// Prefetched once home is idle (lazy-chunks.ts), so opening the catalogue from home does not wait.
const MeditationsPage = lazy(() => loadMeditationsPage().then((m) => ({ default: m.MeditationsPage })));
const FounderPage = lazy(() => import('#web/features/pages/founder-page.tsx').then((m) => ({ default: m.FounderPage })));
const AboutPage = lazy(() => import('#web/features/pages/about-page.tsx').then((m) => ({ default: m.AboutPage })));
const SupportPage = lazy(() => import('#web/features/pages/support-page.tsx').then((m) => ({ default: m.SupportPage })));
const PrivacyPage = lazy(() => import('#web/features/pages/privacy-page.tsx').then((m) => ({ default: m.PrivacyPage })));
const CookiesPage = lazy(() => import('#web/features/pages/cookies-page.tsx').then((m) => ({ default: m.CookiesPage })));
const TermsPage = lazy(() => import('#web/features/pages/terms-page.tsx').then((m) => ({ default: m.TermsPage })));
const SignInPage = lazy(() => import('#web/features/auth/sign-in-page.tsx').then((m) => ({ default: m.SignInPage })));
const SignUpPage = lazy(() => import('#web/features/auth/sign-up-page.tsx').then((m) => ({ default: m.SignUpPage })));
const VerifyEmailPage = lazy(() => import('#web/features/auth/verify-email-page.tsx').then((m) => ({ default: m.VerifyEmailPage })));
const AppleReturnPage = lazy(() => import('#web/features/auth/apple-return-page.tsx').then((m) => ({ default: m.AppleReturnPage })));
const ResetPasswordPage = lazy(() => import('#web/features/auth/reset-password-page.tsx').then((m) => ({ default: m.ResetPasswordPage })));
const SandboxCheckoutPage = lazy(() => import('#web/features/billing/sandbox-checkout-page.tsx').then((m) => ({ default: m.SandboxCheckoutPage })));
const SandboxPortalPage = lazy(() => import('#web/features/billing/sandbox-portal-page.tsx').then((m) => ({ default: m.SandboxPortalPage })));
const SubscribePage = lazy(() => import('#web/features/billing/subscribe-page.tsx').then((m) => ({ default: m.SubscribePage })));
const AccountPage = lazy(() => import('#web/features/account/account-page.tsx').then((m) => ({ default: m.AccountPage })));
const JournalPage = lazy(() => import('#web/features/journal/journal-page.tsx').then((m) => ({ default: m.JournalPage })));
const RoutinePage = lazy(() => import('#web/features/routines/routine-page.tsx').then((m) => ({ default: m.RoutinePage })));
const WaitlistPage = lazy(() => import('#web/features/waitlist/waitlist-page.tsx').then((m) => ({ default: m.WaitlistPage })));
const AdminPage = lazy(() => import('#web/features/admin/admin-page.tsx').then((m) => ({ default: m.AdminPage })));
const TimerPage = lazy(() => import('#web/features/timer/timer-page.tsx').then((m) => ({ default: m.TimerPage })));
const BreathingPage = lazy(() => import('#web/features/breathing/breathing-page.tsx').then((m) => ({ default: m.BreathingPage })));
const ProgrammesPage = lazy(() => import('#web/features/programmes/programmes-page.tsx').then((m) => ({ default: m.ProgrammesPage })));
const ProgrammePage = lazy(() => import('#web/features/programmes/programme-page.tsx').then((m) => ({ default: m.ProgrammePage })));
const WelcomePage = lazy(() => import('#web/features/welcome/welcome-page.tsx').then((m) => ({ default: m.WelcomePage })));
// A shared journal entry's page: no app around it (decision 0050).
const SharedEntryPage = lazy(() => import('#web/features/journal/journal-shared-page.tsx').then((m) => ({ default: m.SharedEntryPage })));
const RemindersOffPage = lazy(() => import('#web/features/reminders/reminders-off-page.tsx').then((m) => ({ default: m.RemindersOffPage })));
const NotFoundPage = lazy(() => import('#web/features/not-found/not-found-page.tsx').then((m) => ({ default: m.NotFoundPage })));

/** Rendered with useRoutes (main.tsx); the layout shows each lazy page inside its own Suspense boundary. */
export const routes: RouteObject[] = [
  {
    element: <AppLayout />,
    children: [
      { path: '/', element: <HomePage /> },
      { path: '/meditations', element: <MeditationsPage /> },
      { path: '/meditations/:categorySlug', element: <MeditationsPage /> },
      { path: '/meditation/:meditationId', element: <MeditationsPage /> },
      { path: '/category/:categoryName', element: <MeditationsPage /> },
      { path: '/why-i-created-harbour-mind', element: <FounderPage /> },
      { path: '/about', element: <AboutPage /> },
      { path: '/support', element: <SupportPage /> },
      { path: '/privacy', element: <PrivacyPage /> },
      { path: '/cookies', element: <CookiesPage /> },
      { path: '/terms', element: <TermsPage /> },
      { path: '/sign-in', element: <SignInPage /> },
      { path: '/sign-up', element: <SignUpPage /> },
      { path: '/reset-password', element: <ResetPasswordPage /> },
      { path: '/verify-email', element: <VerifyEmailPage /> },
      { path: '/apple-sign-in', element: <AppleReturnPage /> },
      { path: '/subscribe/sandbox-checkout', element: <SandboxCheckoutPage /> },
      { path: '/subscribe/sandbox-portal', element: <SandboxPortalPage /> },
      { path: '/subscribe', element: <SubscribePage /> },
      { path: '/account', element: <AccountPage /> },
      { path: '/profile', element: <AccountPage /> },
      { path: '/journal', element: <JournalPage /> },
      { path: '/morning-routine', element: <RoutinePage kind="morning" /> },
      { path: '/evening-routine', element: <RoutinePage kind="evening" /> },
      { path: '/timer', element: <TimerPage /> },
      { path: '/breathe', element: <BreathingPage /> },
      { path: '/programmes', element: <ProgrammesPage /> },
      { path: '/programmes/:slug', element: <ProgrammePage /> },
      { path: '/waitlist', element: <WaitlistPage /> },
      { path: '/admin', element: <AdminPage /> },
      { path: '/welcome', element: <WelcomePage /> },
      { path: '/reminders/off', element: <RemindersOffPage /> },
      { path: '*', element: <NotFoundPage /> },
    ],
  },
  // Outside the layout: a recipient sees the entry and nothing of the app or of whoever shared it, and it prints as a page.
  {
    path: '/shared/:shareId',
    element: (
      <Suspense fallback={null}>
        <SharedEntryPage />
      </Suspense>
    ),
  },
];
