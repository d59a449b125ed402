/**
 * User-facing strings from the specification, verbatim, and the error-code → text catalogue
 * (admin document §8 'Shared error-message mapping'). Server and web import these; never reword them.
 */
export const MESSAGES = {
  catalogue: {
    loading: 'Loading meditations...',
    error: (message: string) => `Error loading meditations: ${message}`,
    empty: 'No meditations found in this category.',
    fetchFailed: (message: string) => `Failed to fetch meditations: ${message}`,
    subscribeToListen: 'Subscribe to listen',
    subscribeDialogBody:
      'This meditation is part of your subscription. Start your journey by subscribing to listen.',
    subscribeToContinue: 'Subscribe to Continue',
    maybeLater: 'Maybe Later',
    /** Beyond the spec: the free samples anyone may play (issue 17, decision 0025). */
    freeSample: 'Free to try',
    notFound: 'Meditation not found',
  },
  player: {
    completeTitle: 'Meditation Complete!',
    completeBody: 'Beautiful work – your mindful practice is done.',
    loadTimeout: 'This meditation is taking too long to load. Please check your connection and try again.',
    playbackFailed: 'This meditation could not be played. Please try again.',
    offlinePlaybackFailed: 'Offline playback failed',
    offlinePlaybackFailedBody: 'Streaming it instead.',
  },
  favourites: {
    authRequiredTitle: 'Authentication required',
    authRequiredBody: 'Please sign in to save meditations',
    /** Beyond the spec: the way out of that message (issue 17). */
    createAccount: 'Create a free account',
    signInToAccess: 'Sign in to access your favourite meditations',
    added: (title: string) => `Saved “${title}” to your favourites`,
    removedTitle: 'Meditation removed',
    removed: (title: string) => `“${title}” was removed from your favourites`,
    removeFailedTitle: 'Failed to remove',
    removeFailedBody: 'Could not remove the meditation',
    saveFailedTitle: 'Save failed',
    saveFailedBody: 'Missing meditation information',
    removeConfirmTitle: 'Remove Meditation?',
    removeConfirmBody: (title: string) => `“${title}” will be removed from your favourites, and any offline copy from this device.`,
    empty: 'No saved meditations yet',
    emptyBody: 'Tap the heart on any meditation to keep it here, ready for the moments you need it.',
    offline: 'Offline',
    online: 'Online',
    unknownDuration: 'Unknown',
  },
  home: {
    heroStart: 'Start Meditating',
    heroJournal: 'Open Journal',
    affirmationHeading: "Today's affirmation",
    tilesHeading: 'Discover Paths to Emotional Wellbeing',
  },
  auth: {
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
    signedOutTitle: 'Signed Out',
    signedOutBody: 'You have been successfully signed out.',
    signOutErrorTitle: 'Error',
    signOutError: 'Failed to sign out. Please try again.',
    unexpected: 'An unexpected error occurred.',
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

export type ErrorCode =
  | 'auth/user-not-found'
  | 'auth/wrong-password'
  | 'auth/too-many-requests'
  | 'auth/email-already-in-use'
  | 'auth/weak-password'
  | 'auth/invalid-email'
  | 'subscription/payment-failed'
  | 'subscription/card-declined'
  | 'network/timeout'
  | 'validation/invalid-input'
  | 'rate-limit/exceeded'
  | 'database/duplicate-email'
  | 'database/constraint-violation'
  | 'database/connection-error'
  | 'not-found'
  | 'auth/unauthenticated'
  | 'auth/forbidden'
  | 'auth/email-not-verified'
  | 'auth/invalid-name'
  | 'auth/failed'
  | 'auth/invalid-token'
  | 'subscription/required'
  | 'billing/checkout-failed'
  | 'billing/unavailable'
  | 'billing/already-subscribed'
  | 'billing/managed-elsewhere'
  | 'media/expired'
  | 'media/forbidden'
  | 'upload/too-large'
  | 'upload/unsupported-type'
  | 'upload/unreadable-audio'
  | 'admin/setup-done'
  | 'security/cross-site-request'
  | 'server/unavailable'
  | 'admin/check-failed'
  | 'security/check-failed'
  | 'account/reauth-required'
  | 'account/last-admin'
  | 'journal/full'
  | 'default';

export const ERROR_TEXT: Record<ErrorCode, string> = {
  'auth/user-not-found': 'Invalid email or password.',
  'auth/wrong-password': 'Invalid email or password.',
  'auth/too-many-requests': 'Too many failed attempts. Please try again later.',
  'auth/email-already-in-use': 'An account with this email already exists.',
  'auth/weak-password': 'Password must be at least 6 characters long.',
  'auth/invalid-email': 'Please enter a valid email address.',
  'subscription/payment-failed': 'Payment could not be processed. Please check your payment details.',
  'subscription/card-declined': 'Your card was declined. Please try a different payment method.',
  'network/timeout': 'Request timed out. Please check your connection and try again.',
  'validation/invalid-input': 'Please check your input and try again.',
  'rate-limit/exceeded': 'Too many requests. Please wait before trying again.',
  'database/duplicate-email': 'This email is already registered on our waitlist. Thank you for your interest!',
  'database/constraint-violation': 'The information provided conflicts with existing data. Please check your details.',
  'database/connection-error': 'Unable to connect to our servers. Please try again in a moment.',
  'not-found': 'Not found.',
  'auth/unauthenticated': 'User not authenticated',
  'auth/forbidden': 'Access denied. Admin privileges required.',
  'auth/email-not-verified': 'Please verify your email address before signing in',
  'auth/invalid-name': 'Please enter a full name',
  'auth/failed': 'Please try again.',
  'auth/invalid-token': 'This link has expired or was already used. Please request a new one.',
  'subscription/required': 'This meditation is part of your subscription. Start your journey by subscribing to listen.',
  'billing/checkout-failed': 'Failed to create checkout session. Please try again.',
  'billing/unavailable': 'Subscriptions are not available right now. Please try again later.',
  'billing/already-subscribed': 'You already have an active subscription.',
  'billing/managed-elsewhere': 'This subscription is managed by Apple: cancel it in Settings › Apple ID › Subscriptions.',
  'media/expired': 'This link has expired.',
  'media/forbidden': 'Forbidden',
  'upload/too-large': 'File size must be less than 50MB',
  'upload/unsupported-type': 'The file is not the audio it claims to be. Supported types are MP3 and M4A.',
  'upload/unreadable-audio': 'The audio file could not be read. Please check it plays, then try again.',
  'admin/setup-done': 'An administrator already exists. Ask them to assign roles in the User Roles tab.',
  'security/cross-site-request': 'This request did not come from Harbour Mind, so nothing was changed. Please try again from the app.',
  // Load shedding and restarts (issue 13, item 6): a short wait fixes it; nothing the user did was wrong.
  'server/unavailable': 'Harbour Mind is busy for a moment. Please try again in a few seconds.',
  // Admin document 'Toasts': 'Database Error' and 'Security Check Failed' (a check that could not run, not a refusal).
  'admin/check-failed': 'Unable to verify admin status',
  'security/check-failed': 'Unable to verify rate limits. Please try again.',
  // Deleting an account (issue 18): proof it is really the person, and never the last admin.
  'account/reauth-required': 'For your safety, please sign in again, then delete your account within 10 minutes.',
  'account/last-admin': 'You are the only admin. Give another account the admin role before deleting yours.',
  // The route answers with journal.ts's recordsFull or bytesFull, which say which cap was reached.
  'journal/full': 'Your journal is full: new entries are kept on this device but not synced.',
  default: 'Something went wrong. Please try again later.',
};
