/**
 * Beyond the spec: what a person manages in Account › Profile (issue 17, item 8). Kept apart from
 * messages.ts, which every first load carries, so only the account and reset pages load these.
 */
export const ACCOUNT_MESSAGES = {
  nameHeading: 'Your name',
  saveName: 'Save name',
  nameSaved: 'Your name is saved',
  saving: 'Saving...',
  passwordHeading: 'Password',
  changePassword: 'Change password',
  passwordsDiffer: 'The two passwords do not match.',
  wrongCurrentPassword: 'Your current password is not correct.',
  passwordChanged: 'Your password is changed.',
  passwordChangedOthersOut: 'Your password is changed, and your other devices are signed out.',
  signOutOthersToo: 'Sign out of my other devices too',
  sessionsHeading: 'Where you are signed in',
  sessionsLoading: 'Loading your devices...',
  sessionsFailed: 'Your devices could not be loaded.',
  thisDevice: 'This device',
  signedInSince: 'Signed in',
  onlyThisDevice: 'You are signed in on this device only.',
  signOutOthers: 'Sign out of other devices',
  othersSignedOut: 'Your other devices are signed out',
  othersSignOutFailed: 'Your other devices could not be signed out',
  unknownDevice: 'Unknown device',
  // Your data (issue 18): download everything, or delete the account.
  dataHeading: 'Your data',
  downloadData: 'Download my data',
  downloadingData: 'Preparing your data...',
  downloadFailed: 'Your data could not be downloaded. Please try again.',
  deleteAccount: 'Delete account',
  deleteHeading: 'Delete your account?',
  deleteConfirmLabel: 'Type DELETE to confirm',
  deleteConfirmWrong: 'Please type DELETE to confirm.',
  deletePasswordLabel: 'Your password',
  deletePasswordMissing: 'Please enter your password.',
  wrongPassword: 'Your password is not correct.',
  deleting: 'Deleting...',
  deleteFailed: 'Your account could not be deleted. Nothing was removed; please try again.',
  deleted: 'Your account has been deleted',
  deletedBody: 'Everything we held about you is gone. A confirmation is on its way to your inbox.',
} as const;

/** The word typed to confirm a deletion (checked on the server too). */
export const DELETE_CONFIRMATION_WORD = 'DELETE';

/** The exact way to stop an App Store subscription, which only Apple can cancel. */
export const APP_STORE_CANCEL_PATH = 'Settings › [your name] › Subscriptions › Harbour Mind › Cancel Subscription';
/** The same for a Google Play subscription (the Android app), which only Google can cancel. */
export const PLAY_STORE_CANCEL_PATH = 'the Play Store app › your profile picture › Payments & subscriptions › Subscriptions › Harbour Mind › Cancel subscription';
