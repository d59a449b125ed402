/**
 * User-facing strings from the specification, verbatim, and the error-code → text catalogue
 * (admin document §8 'Shared error-message mapping'). Server and web import these; never reword them.
 */
import { CATALOGUE_MESSAGES } from '#shared/catalogue-messages.ts';
import { FAVOURITES_MESSAGES } from '#shared/favourites-messages.ts';
import { HOME_MESSAGES } from '#shared/home-messages.ts';
import { PLAYER_MESSAGES } from '#shared/player-messages.ts';
import { SIGN_OUT_MESSAGES } from '#shared/sign-out-messages.ts';

export const MESSAGES = {
  catalogue: CATALOGUE_MESSAGES,
  player: PLAYER_MESSAGES,
  favourites: FAVOURITES_MESSAGES,
  home: HOME_MESSAGES,
  auth: {
    ...SIGN_OUT_MESSAGES,
    fillAllFields: 'Please fill in all fields',
    fullNameRequired: 'Please enter a full name',
    invalidEmailTitle: 'Invalid Email',
    invalidCredentials: 'Invalid email or password',
    emailNotVerified: 'Please verify your email address before signing in',
    signInFailed: (message: string) => `Sign in failed: ${message}`,
    accountExists: 'An account with this email already exists. Please sign in instead.',
    passwordTooShort: 'Password must be at least 6 characters long',
    signUpFailed: (message: string) => `Sign up failed: ${message}`,
    signUpSuccess: 'Account created successfully! Please check your email to verify your account.',
    tooManyAttemptsTitle: 'Too many attempts',
    tooManyAttempts: (seconds: number) => `Please wait ${seconds} seconds before trying again.`,
    signInFailedTitle: 'Sign in failed',
    tryAgain: 'Please try again.',
    welcomeTitle: 'Welcome back!',
    welcomeBody: 'You have successfully signed in.',
    passwordHint: 'Minimum 6 characters',
    signingIn: 'Signing in...',
    appleFailedTitle: 'Apple Sign In failed',
    googleFailedTitle: 'Google Sign In failed',
    tryLater: 'Please try again later.',
    appleNotAvailable: 'Apple Sign In not available on this device',
    googleNotAvailable: 'Google Sign In is currently not available. Please use email/password or Apple Sign In.',
    signInRequiredTitle: 'Sign In Required',
    signInRequiredBody: 'Please sign in to access this feature',
  },
  notFound: {
    code: '404',
    title: 'Oops! Page not found',
    home: 'Return to Home',
  },
} as const;
