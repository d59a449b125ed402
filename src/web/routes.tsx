/** Page routes. Keep in step with src/shared/routes.ts (the server's list of known pages; a test checks). */
import type { RouteObject } from 'react-router';
import { AccountPage } from '#web/features/account/account-page.tsx';
import { ResetPasswordPage } from '#web/features/auth/reset-password-page.tsx';
import { SignInPage } from '#web/features/auth/sign-in-page.tsx';
import { SignUpPage } from '#web/features/auth/sign-up-page.tsx';
import { ComingSoonPage } from '#web/features/coming-soon/coming-soon-page.tsx';
import { MeditationsPage } from '#web/features/catalogue/meditations-page.tsx';
import { HomePage } from '#web/features/home/home-page.tsx';
import { AppLayout } from '#web/features/layout/app-layout.tsx';
import { NotFoundPage } from '#web/features/not-found/not-found-page.tsx';
import { AboutPage } from '#web/features/pages/about-page.tsx';
import { CookiesPage } from '#web/features/pages/cookies-page.tsx';
import { FounderPage } from '#web/features/pages/founder-page.tsx';
import { PrivacyPage } from '#web/features/pages/privacy-page.tsx';
import { SupportPage } from '#web/features/pages/support-page.tsx';
import { TermsPage } from '#web/features/pages/terms-page.tsx';

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
      { path: '/subscribe', element: <ComingSoonPage title="Subscribe" /> },
      { path: '/account', element: <AccountPage /> },
      { path: '/profile', element: <AccountPage /> },
      { path: '/journal', element: <ComingSoonPage title="Journal" /> },
      { path: '/morning-routine', element: <ComingSoonPage title="Create Your Morning Routine" /> },
      { path: '/evening-routine', element: <ComingSoonPage title="Create Your Evening Routine" /> },
      { path: '/waitlist', element: <ComingSoonPage title="Join the Beta" /> },
      { path: '/admin', element: <ComingSoonPage title="Admin Dashboard" /> },
      { path: '*', element: <NotFoundPage /> },
    ],
  },
];
