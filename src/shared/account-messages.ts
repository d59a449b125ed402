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
} as const;
