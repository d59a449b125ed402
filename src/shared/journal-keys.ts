/**
 * The private journal's keys and locks (issues 18, 33 and 36): the passphrase's rules, the key derivation,
 * when an opened journal locks, starting over, what one journal may sync, and the words for all of them,
 * biometric unlock's included. The entries themselves (types, prompts, insights) are in journal.ts.
 */
import { entriesCount } from '#shared/journal.ts';

/**
 * 40000 → "40,000", as en-GB writes it. Not toLocaleString: this module is evaluated while the first
 * page settles (the session summary's journal link is prefetched), and a first Intl call there built
 * en-GB's number format on the main thread, a 60-85 ms task on a phone-speed CPU (issue 39).
 */
function groupThousands(value: number): string {
  return String(value).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/**
 * What one account's encrypted journal may hold on the server (issue 33, row 3; decision 0044). Sized from
 * a heavy journaler: five long entries (about 4 000 characters each, ~6 KB sealed) every day for ten years
 * is 18 250 records and ~113 MB; each cap is about twice that. Deleting an entry leaves a small sealed
 * marker in its record (so other devices learn of it), so it frees bytes but not a record.
 */
export const JOURNAL_STORAGE = {
  recordsMax: 40_000,
  /** Sealed characters (base64) across all of an account's records. */
  charsMax: 256 * 1024 * 1024,
} as const;

/** The shortest journal passphrase (issue 18): it guards the journal against anyone holding a copy of the database. */
export const JOURNAL_PASSPHRASE_MIN = 10;
/**
 * The lowest zxcvbn score (0–4) a new journal passphrase may have (issue 36, item 2; decision 0061): 3 is
 * "safely unguessable" against an offline attack slowed by a strong KDF.
 */
export const JOURNAL_PASSPHRASE_MIN_SCORE = 3;

/**
 * Argon2id for new and changed passphrases (issue 36, item 2; decision 0061): Bitwarden's defaults are the
 * floor the server holds every keyring it takes to (m = 64 MiB, t = 3, p = 4); what the device uses now.
 */
export const JOURNAL_ARGON2ID = { memoryKiB: 64 * 1024, iterations: 3, parallelism: 4 } as const;
/** How many earlier data keys a keyring carries (wrapped under the current one), for devices that were away during a rotation. */
export const JOURNAL_PREVIOUS_KEYS_MAX = 20;

/**
 * When an opened journal locks itself on this device (issue 36, item 1; decision 0054): after this many
 * minutes without pointer, keyboard or touch activity (or in the background, inside the apps). The
 * choice is the device's own, kept in its local storage under `storageKey`.
 */
export const JOURNAL_LOCK_AFTER = {
  choices: [1, 5, 15, 30, 60],
  defaultMinutes: 15,
  storageKey: 'hm.journalLockAfter',
} as const;

/**
 * "Start a new journal" (issue 36, item 3): the word typed to confirm deleting the server's keyring and
 * every record, as the account's deletion asks for its own.
 */
export const JOURNAL_RESET_WORD = 'DELETE';

/** The end-to-end encrypted journal's keys, locks and sync: their words (issue 18; decision 0031). */
export const JOURNAL_LOCK_MESSAGES = {
  setUpTitle: 'Set up your private journal',
  setUpBody: 'Your journal is encrypted on your device before it is stored, so it follows you to your other devices and nobody else can read it: not us, not anyone with our servers.',
  setUpWarning: 'Only you know your passphrase. If you forget it and lose your recovery key, your journal cannot be opened by anyone, and we cannot reset it for you.',
  setUpUnderstood: 'I understand that a forgotten passphrase without the recovery key means my journal is lost.',
  setUpButton: 'Set up my journal',
  settingUp: 'Setting up...',
  recoveryTitle: 'Keep your recovery key',
  recoveryBody: 'This key opens your journal if you forget your passphrase. It is shown only now. Download it or write it down, and keep it somewhere safe, away from this device.',
  recoveryDownload: 'Download recovery key',
  recoveryKept: 'I have kept my recovery key somewhere safe.',
  /** Said beside the key when saving it went nowhere (inside the apps: the share sheet closed, or failed; issue 35, item 5). */
  recoveryNotKept: 'Your recovery key is not kept yet: save it again, copy it, or write it down before you go on.',
  recoveryDone: 'Go to my journal',
  unlockTitle: 'Unlock your journal',
  unlockBody: 'Enter your journal passphrase to read and write your entries on this device.',
  unlockButton: 'Unlock',
  unlocking: 'Unlocking...',
  wrongPassphrase: 'That passphrase does not open this journal.',
  forgot: 'Forgotten your passphrase?',
  usePassphrase: 'Use my passphrase instead',
  recoverTitle: 'Use your recovery key',
  recoverBody: 'Enter your recovery key, then choose a new passphrase. Your other devices stay unlocked.',
  recoverButton: 'Unlock and save new passphrase',
  passphraseLabel: 'Passphrase',
  repeatLabel: 'Passphrase again',
  newPassphraseLabel: 'New passphrase',
  recoveryKeyLabel: 'Recovery key',
  passphraseShort: `Use at least ${JOURNAL_PASSPHRASE_MIN} characters: a few unrelated words are easy to remember and hard to guess.`,
  passphraseMismatch: 'The two passphrases are not the same.',
  lockedCard: 'Your journal is locked on this device.',
  setUpCard: 'Your journal is private to you and encrypted end to end. Set it up once to start writing.',
  signedOutCard: 'Sign in to open your journal. It is private to your account and encrypted end to end.',
  unreachable: 'Your journal cannot be opened right now: this device has not unlocked it yet and cannot reach Harbour Mind. Check your connection and try again.',
  lockButton: 'Lock journal',
  lockAfterLabel: 'Lock after',
  lockAfterChoice: (minutes: number) => (minutes === 1 ? '1 minute' : `${minutes} minutes`),
  lockAfterHint: 'without activity on this device',
  changeButton: 'Change journal passphrase',
  changeTitle: 'Change your journal passphrase',
  changeBody: 'Your entries stay as they are, and your devices stay unlocked. Your recovery key still works.',
  currentPassphraseLabel: 'Current passphrase',
  changeSubmit: 'Save new passphrase',
  changed: 'Journal passphrase changed',
  rotateLabel: 'Also replace the key that encrypts my entries',
  rotateHint:
    'For a lost or stolen device: every entry is encrypted again under a new key, your other devices must unlock again, and you get a new recovery key (the old one stops working). This device must be online.',
  rotated: 'Your journal has a new key. Your other devices will ask for your passphrase.',
  rotateNeedsSync: 'Every change on this device must reach Harbour Mind before the key can be replaced. Check your connection and try again.',
  newRecoveryButton: 'New recovery key',
  newRecoveryTitle: 'Replace your recovery key',
  newRecoveryBody:
    'Your entries are encrypted again under a new key and you get a new recovery key; the old recovery key stops working. Your other devices must unlock again with your passphrase. This device must be online.',
  newRecoverySubmit: 'Make a new recovery key',
  keyReplacedElsewhere: 'Your journal’s key was replaced on another device. Unlock your journal again with your passphrase.',
  reusedWarning: 'Do not use your account password here. Your account password is sent to Harbour Mind when you sign in; your journal passphrase never leaves this device.',
  strengthLabel: 'Passphrase strength',
  strengthWords: ['Very weak', 'Weak', 'Fair', 'Strong', 'Very strong'],
  strengthChecking: 'Checking strength…',
  passphraseWeak: 'This passphrase is too easy to guess. Add another unrelated word or two.',
  lockedNow: 'Journal locked on this device',
  synced: 'Encrypted and synced',
  syncing: 'Syncing...',
  offline: (pending: number) => `Saved on this device. ${pending} ${pending === 1 ? 'change waits' : 'changes wait'} to sync when you are back online.`,
  needsSubscription: 'New entries are kept on this device and will sync once your subscription is active.',
  syncFailed: 'Some changes could not be synced. They are kept on this device and will be tried again.',
  refused: (count: number) =>
    `${count} ${count === 1 ? 'change' : 'changes'} from the server ${count === 1 ? 'was' : 'were'} not applied: older than what this device had already seen, or bringing back a deleted entry. Your journal here is unchanged.`,
  conflictedCopy: 'Conflicted copy',
  conflictedCopyHint: 'Changed on two devices at once: this is the version that reached the server second. Keep it, or delete it if the other one says it all.',
  unreadable: (count: number) => `${count} ${count === 1 ? 'entry' : 'entries'} could not be opened with this journal's key and ${count === 1 ? 'is' : 'are'} not shown.`,
  legacyTitle: 'Entries from before',
  legacyBody: (count: number) => `This device holds ${count} journal ${count === 1 ? 'entry' : 'entries'} written before journals were private to each account. Add ${count === 1 ? 'it' : 'them'} to your journal, or delete ${count === 1 ? 'it' : 'them'} if ${count === 1 ? 'it is' : 'they are'} not yours.`,
  legacyImport: 'Add to my journal',
  legacyDiscard: (count: number) => (count === 1 ? 'Delete it' : 'Delete them'),
  legacyImported: (count: number) => `${entriesCount(count)} added to your journal`,
  recordsFull: `Your journal holds ${groupThousands(JOURNAL_STORAGE.recordsMax)} entries, the most one journal can sync. New entries are kept on this device but not synced. You can still edit and delete the entries you have.`,
  bytesFull: `Your journal has reached ${JOURNAL_STORAGE.charsMax / 1024 / 1024} MB, the most one journal can sync. New and longer entries are kept on this device but not synced; deleting entries you no longer need makes room.`,
  resetButton: 'Start a new journal',
  resetTitle: 'Start a new journal?',
  resetBody:
    'Every entry in your journal is deleted, from Harbour Mind and from this device, for good: with your passphrase and recovery key gone, nobody can read them again, us included. Links you shared keep working until they expire or you revoke them. Then you set up a new journal with a new passphrase.',
  resetWordLabel: `Type ${JOURNAL_RESET_WORD} to confirm`,
  resetWordWrong: `Type ${JOURNAL_RESET_WORD} exactly, in capitals, to delete your journal.`,
  resetSubmit: 'Delete my journal and start again',
  resetDone: 'Your old journal is deleted. Set up a new one to start writing.',
  resetElsewhere: 'Your journal was deleted on another device with “Start a new journal”. What this device held of it has been removed.',
  storageRefusedTitle: 'Could not save on this device',
  storageRefusedBody: 'Your browser storage is full or blocked. Your text is still in the form.',
} as const;

/** What a device offers to open the journal's biometric secret (decision 0065), as the plugin reports it. */
export type BiometryKind = 'face-id' | 'touch-id' | 'fingerprint' | 'face' | 'iris' | 'biometrics';

const BIOMETRY_NAMES: Record<BiometryKind, string> = { 'face-id': 'Face ID', 'touch-id': 'Touch ID', fingerprint: 'fingerprint', face: 'face unlock', iris: 'iris unlock', biometrics: 'fingerprint or face' };

/** Unlocking the journal with Face ID / fingerprint inside the apps (issue 36, item 1; decision 0065). */
export const JOURNAL_BIOMETRIC_MESSAGES = {
  name: (kind: BiometryKind) => BIOMETRY_NAMES[kind],
  offer: (kind: BiometryKind) => `Unlock with ${BIOMETRY_NAMES[kind]} next time`,
  offerHint: 'On this device only. Your passphrase always works too. Changing your passphrase or key, starting a new journal or signing out turns this off.',
  unlockWith: (kind: BiometryKind) => `Unlock with ${BIOMETRY_NAMES[kind]}`,
  enrolled: (kind: BiometryKind) => `Your journal will unlock with ${BIOMETRY_NAMES[kind]} on this device.`,
  notEnrolled: (kind: BiometryKind) => `Your journal is open, but unlocking with ${BIOMETRY_NAMES[kind]} was not turned on. You can try again at your next unlock.`,
  cancelled: (kind: BiometryKind) => `Unlocking with ${BIOMETRY_NAMES[kind]} was cancelled. Enter your passphrase to unlock.`,
  failed: (kind: BiometryKind) => `Your journal could not be unlocked with ${BIOMETRY_NAMES[kind]}. Enter your passphrase to unlock.`,
  gone: (kind: BiometryKind) =>
    `Unlocking with ${BIOMETRY_NAMES[kind]} is off: your journal's passphrase or key changed, or this device's ${BIOMETRY_NAMES[kind]} did. Enter your passphrase; you can turn it on again.`,
  turnOff: (kind: BiometryKind) => `Turn off ${BIOMETRY_NAMES[kind]} unlock`,
  turnedOff: (kind: BiometryKind) => `Your journal no longer unlocks with ${BIOMETRY_NAMES[kind]} on this device.`,
  enrolPromptTitle: (kind: BiometryKind) => `Unlock your journal with ${BIOMETRY_NAMES[kind]}`,
  promptTitle: 'Unlock your journal',
  promptReason: 'Unlock your Harbour Mind journal',
  promptCancel: 'Use passphrase',
} as const;
