/**
 * Page routes; screens off the landing path load on demand to keep the first download small.
 * Keep in step with src/shared/routes.ts (the server's list of known pages; a test checks).
 */
import type { RouteObject } from 'react-router';
import { MeditationsPage } from '#web/features/catalogue/meditations-page.tsx';
import { HomePage } from '#web/features/home/home-page.tsx';
import { AppLayout } from '#web/features/layout/app-layout.tsx';
import { RouteError } from '#web/features/layout/route-error.tsx';
import { NotFoundPage } from '#web/features/not-found/not-found-page.tsx';

export const routes: RouteObject[] = [
  {
    element: <AppLayout />,
    // A page chunk that fails to load (after a deploy) or a page that throws: a way out, not a stack trace.
    errorElement: <RouteError />,
    children: [
      { path: '/', element: <HomePage /> },
      { path: '/meditations', element: <MeditationsPage /> },
      { path: '/meditations/:categorySlug', element: <MeditationsPage /> },
      { path: '/meditation/:meditationId', element: <MeditationsPage /> },
      { path: '/category/:categoryName', element: <MeditationsPage /> },
      { path: '/why-i-created-harbour-mind', lazy: () => import('#web/features/pages/founder-page.tsx').then((m) => ({ Component: m.FounderPage })) },
      { path: '/about', lazy: () => import('#web/features/pages/about-page.tsx').then((m) => ({ Component: m.AboutPage })) },
      { path: '/support', lazy: () => import('#web/features/pages/support-page.tsx').then((m) => ({ Component: m.SupportPage })) },
      { path: '/privacy', lazy: () => import('#web/features/pages/privacy-page.tsx').then((m) => ({ Component: m.PrivacyPage })) },
      { path: '/cookies', lazy: () => import('#web/features/pages/cookies-page.tsx').then((m) => ({ Component: m.CookiesPage })) },
      { path: '/terms', lazy: () => import('#web/features/pages/terms-page.tsx').then((m) => ({ Component: m.TermsPage })) },
      { path: '/sign-in', lazy: () => import('#web/features/auth/sign-in-page.tsx').then((m) => ({ Component: m.SignInPage })) },
      { path: '/sign-up', lazy: () => import('#web/features/auth/sign-up-page.tsx').then((m) => ({ Component: m.SignUpPage })) },
      { path: '/reset-password', lazy: () => import('#web/features/auth/reset-password-page.tsx').then((m) => ({ Component: m.ResetPasswordPage })) },
      { path: '/subscribe/sandbox-checkout', lazy: () => import('#web/features/billing/sandbox-checkout-page.tsx').then((m) => ({ Component: m.SandboxCheckoutPage })) },
      { path: '/subscribe/sandbox-portal', lazy: () => import('#web/features/billing/sandbox-portal-page.tsx').then((m) => ({ Component: m.SandboxPortalPage })) },
      { path: '/subscribe', lazy: () => import('#web/features/billing/subscribe-page.tsx').then((m) => ({ Component: m.SubscribePage })) },
      { path: '/account', lazy: () => import('#web/features/account/account-page.tsx').then((m) => ({ Component: m.AccountPage })) },
      { path: '/profile', lazy: () => import('#web/features/account/account-page.tsx').then((m) => ({ Component: m.AccountPage })) },
      { path: '/journal', lazy: () => import('#web/features/journal/journal-page.tsx').then((m) => ({ Component: m.JournalPage })) },
      { path: '/morning-routine', lazy: () => import('#web/features/routines/routine-page.tsx').then(({ RoutinePage }) => ({ Component: () => <RoutinePage kind="morning" /> })) },
      { path: '/evening-routine', lazy: () => import('#web/features/routines/routine-page.tsx').then(({ RoutinePage }) => ({ Component: () => <RoutinePage kind="evening" /> })) },
      { path: '/waitlist', lazy: () => import('#web/features/waitlist/waitlist-page.tsx').then((m) => ({ Component: m.WaitlistPage })) },
      { path: '/admin', lazy: () => import('#web/features/admin/admin-page.tsx').then((m) => ({ Component: m.AdminPage })) },
      { path: '*', element: <NotFoundPage /> },
    ],
  },
];
