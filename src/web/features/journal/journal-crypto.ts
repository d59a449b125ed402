/**
 * The journal's end-to-end encryption (issue 18; key hierarchy in decision 0031). Everything here
 * runs on the person's device with WebCrypto; the server only ever stores what `sealRecord` and
 * `createKeyring` return, and cannot open any of it.
 *
 * - One random 256-bit data key per account encrypts every record (AES-GCM, a fresh 96-bit IV each
 *   time, the account and record id bound in as additional data so a record cannot be moved).
 * - The data key is stored twice, wrapped: under a key derived from the person's passphrase
 *   (Argon2id through hash-wasm's WebAssembly, at least m = 64 MiB, t = 3, p = 4 since issue 36, decision
 *   0061; PBKDF2-SHA-256 at 600 000 iterations before, upgraded at the next unlock), and under a key derived
 *   from a random recovery key shown once (HKDF-SHA-256: it is already 256 bits of randomness).
 * - Changing the passphrase re-wraps the same data key, so no record needs re-encrypting. Rotating
 *   (decision 0061) makes a new data key and recovery key, and keeps the keys it replaced sealed under
 *   the new one (`previous`), so records sealed before still open until they are sealed again.
 * - Plaintext is padded to buckets (issue 36, item 4; decision 0055): at least 2 KiB, then powers of two up
 *   to 32 KiB, then 8 KiB steps. A mood check, a CBT worksheet, a DBT record and a deletion of everyday
 *   length are all one size; only long entries show roughly how long they are.
 */

import { JOURNAL_ARGON2ID, JOURNAL_PREVIOUS_KEYS_MAX } from '#shared/journal-keys.ts';
import { padTo, unpadded } from '#web/features/journal/length-padding.ts';

/** PBKDF2's count, for keyrings made before Argon2id (and the tests that make one). */
export const KDF_ITERATIONS = 600_000;
/** The smallest sealed plaintext: every everyday entry, of any type, and every deletion fit in it. */
const PAD_MIN = 2048;
/** Up to this, sizes double; past it they grow in steps of PAD_STEP, so the largest entry stays within the API's record limit. */
const PAD_DOUBLING_UP_TO = 32 * 1024;
const PAD_STEP = 8 * 1024;
const RECOVERY_INFO = new TextEncoder().encode('harbour-mind journal recovery key v1');

export type Wrapped = { iv: string; data: string };
export type Argon2idParams = { memoryKiB: number; iterations: number; parallelism: number };
type PassphraseKdf = { kdf: 'PBKDF2-SHA-256'; iterations: number } | ({ kdf: 'Argon2id' } & Argon2idParams);
/** An earlier data key, sealed under the current one (AES-GCM, its generation bound in). */
type PreviousKey = { generation: number; iv: string; data: string };
/** What the server keeps for an account's journal: nothing in it opens a record without the passphrase or the recovery key. */
export type Keyring = {
  version: 1;
  /** 1 at set-up, one more at every rotation; absent on keyrings made before rotation: 1. */
  generation?: number;
  passphrase: PassphraseKdf & { salt: string; wrapped: Wrapped };
  recovery: { kdf: 'HKDF-SHA-256'; salt: string; wrapped: Wrapped };
  previous?: PreviousKey[];
};
/** A keyring as a device makes it now: its passphrase wrap under Argon2id, the only kind the server takes as new (decision 0061). */
export type NewKeyring = Keyring & { passphrase: { kdf: 'Argon2id' } & Argon2idParams & { salt: string; wrapped: Wrapped } };
export type SealedRecord = { iv: string; data: string };
/** A journal's opened keys: the current data key and the ones it replaced, none of them extractable. */
export type OpenedKeys = { dataKey: CryptoKey; previousKeys: CryptoKey[] };

export const generationOf = (keyring: Pick<Keyring, 'generation'>): number => keyring.generation ?? 1;

export class JournalLockedError extends Error {
  constructor(message = 'That passphrase does not open this journal.') {
    super(message);
    this.name = 'JournalLockedError';
  }
}

const subtle = () => globalThis.crypto.subtle;
const random = (bytes: number) => globalThis.crypto.getRandomValues(new Uint8Array(bytes));

/** Base64 without padding characters lost: what JSON carries to and from the server. */
export function toBase64(bytes: Uint8Array): string {
  let text = '';
  for (const byte of bytes) text += String.fromCharCode(byte);
  return btoa(text);
}
export function fromBase64(text: string): Uint8Array<ArrayBuffer> {
  const raw = atob(text);
  const bytes = new Uint8Array(raw.length);
  for (let i = 0; i < raw.length; i += 1) bytes[i] = raw.charCodeAt(i);
  return bytes;
}

// ---- the recovery key: 32 random bytes, written as 13 groups of 4 letters and digits (Crockford's base32)

const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

export function formatRecoveryKey(bytes: Uint8Array): string {
  let bits = 0;
  let value = 0;
  let out = '';
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += ALPHABET[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += ALPHABET[(value << (5 - bits)) & 31];
  return (out.match(/.{1,4}/g) ?? []).join('-');
}

/** Reads a recovery key as a person may type it: any case, spaces or dashes, O for 0 and I or L for 1. */
export function parseRecoveryKey(text: string): Uint8Array<ArrayBuffer> | null {
  const clean = text.toUpperCase().replace(/[\s-]/g, '').replace(/O/g, '0').replace(/[IL]/g, '1');
  if (!/^[0-9A-HJKMNP-TV-Z]{52}$/.test(clean)) return null;
  const bytes = new Uint8Array(32);
  let bits = 0;
  let value = 0;
  let at = 0;
  for (const char of clean) {
    value = (value << 5) | ALPHABET.indexOf(char);
    bits += 5;
    if (bits >= 8) {
      if (at < 32) bytes[at] = (value >>> (bits - 8)) & 255;
      at += 1;
      bits -= 8;
    }
    value &= (1 << bits) - 1;
  }
  return bytes;
}

// ---- wrapping keys

const ARGON2ID: { kdf: 'Argon2id' } & Argon2idParams = { kdf: 'Argon2id', ...JOURNAL_ARGON2ID };

async function passphraseKey(passphrase: string, salt: Uint8Array<ArrayBuffer>, kdf: PassphraseKdf): Promise<CryptoKey> {
  const password = new TextEncoder().encode(passphrase.normalize('NFC'));
  if (kdf.kdf === 'PBKDF2-SHA-256') {
    const material = await subtle().importKey('raw', password, 'PBKDF2', false, ['deriveKey']);
    return subtle().deriveKey({ name: 'PBKDF2', hash: 'SHA-256', salt, iterations: kdf.iterations }, material, { name: 'AES-GCM', length: 256 }, false, ['wrapKey', 'unwrapKey']);
  }
  // hash-wasm refuses an empty password; no journal has one, so it opens nothing.
  if (password.length === 0) throw new JournalLockedError();
  // WebAssembly, loaded only when a passphrase is used (decision 0061: the CSP allows 'wasm-unsafe-eval' for it).
  const { argon2id } = await import('hash-wasm');
  // hash-wasm answers a view of its own memory's copy; copied into an ArrayBuffer-backed array for WebCrypto.
  const derived = await argon2id({ password, salt, memorySize: kdf.memoryKiB, iterations: kdf.iterations, parallelism: kdf.parallelism, hashLength: 32, outputType: 'binary' });
  const raw = new Uint8Array(derived);
  try {
    return await subtle().importKey('raw', raw, 'AES-GCM', false, ['wrapKey', 'unwrapKey']);
  } finally {
    raw.fill(0);
    derived.fill(0);
  }
}

/** Whether a keyring's passphrase wrap is weaker than what a device makes now: it is upgraded at the next unlock online. */
export function needsUpgrade(keyring: Keyring): boolean {
  const kdf = keyring.passphrase;
  return kdf.kdf !== 'Argon2id' || kdf.memoryKiB < ARGON2ID.memoryKiB || kdf.iterations < ARGON2ID.iterations || kdf.parallelism < ARGON2ID.parallelism;
}

async function recoveryWrappingKey(recovery: Uint8Array<ArrayBuffer>, salt: Uint8Array<ArrayBuffer>): Promise<CryptoKey> {
  const material = await subtle().importKey('raw', recovery, 'HKDF', false, ['deriveKey']);
  return subtle().deriveKey({ name: 'HKDF', hash: 'SHA-256', salt, info: RECOVERY_INFO }, material, { name: 'AES-GCM', length: 256 }, false, ['wrapKey', 'unwrapKey']);
}

async function wrap(dataKey: CryptoKey, by: CryptoKey): Promise<Wrapped> {
  const iv = random(12);
  const data = new Uint8Array(await subtle().wrapKey('raw', dataKey, by, { name: 'AES-GCM', iv }));
  return { iv: toBase64(iv), data: toBase64(data) };
}

/** Opens a wrapped data key; extractable only for the moment a new wrap of it is made (changing or rotating). */
async function unwrap(wrapped: Wrapped, by: CryptoKey, extractable = false): Promise<CryptoKey> {
  try {
    // Not extractable once opened: the page can use the key, never read it out.
    return await subtle().unwrapKey('raw', fromBase64(wrapped.data), by, { name: 'AES-GCM', iv: fromBase64(wrapped.iv) }, { name: 'AES-GCM', length: 256 }, extractable, ['encrypt', 'decrypt']);
  } catch {
    throw new JournalLockedError();
  }
}

/** A non-extractable copy of an extractable key: what the page holds from then on. */
async function lockedCopy(extractable: CryptoKey): Promise<CryptoKey> {
  const raw = new Uint8Array(await subtle().exportKey('raw', extractable));
  try {
    return await subtle().importKey('raw', raw, 'AES-GCM', false, ['encrypt', 'decrypt']);
  } finally {
    raw.fill(0);
  }
}

/** Argon2id at today's parameters; tests may pass cheaper ones (the server refuses those: they are below its floor). */
async function passphraseWrap(dataKey: CryptoKey, passphrase: string, params: Argon2idParams = ARGON2ID): Promise<NewKeyring['passphrase']> {
  const salt = random(16);
  const kdf = { kdf: 'Argon2id' as const, memoryKiB: params.memoryKiB, iterations: params.iterations, parallelism: params.parallelism };
  return { ...kdf, salt: toBase64(salt), wrapped: await wrap(dataKey, await passphraseKey(passphrase, salt, kdf)) };
}

async function recoveryWrap(dataKey: CryptoKey): Promise<{ recovery: Keyring['recovery']; recoveryKey: string }> {
  const secret = random(32);
  const salt = random(16);
  return { recovery: { kdf: 'HKDF-SHA-256', salt: toBase64(salt), wrapped: await wrap(dataKey, await recoveryWrappingKey(secret, salt)) }, recoveryKey: formatRecoveryKey(secret) };
}

/** A new journal: its data key, the keyring to store, and the recovery key to show once. */
export async function createKeyring(passphrase: string, params?: Argon2idParams): Promise<{ keyring: NewKeyring; recoveryKey: string; dataKey: CryptoKey }> {
  const extractable = await subtle().generateKey({ name: 'AES-GCM', length: 256 }, true, ['encrypt', 'decrypt']);
  const { recovery, recoveryKey } = await recoveryWrap(extractable);
  const keyring: NewKeyring = { version: 1, generation: 1, passphrase: await passphraseWrap(extractable, passphrase, params), recovery };
  // From here on only a non-extractable copy is kept.
  return { keyring, recoveryKey, dataKey: await lockedCopy(extractable) };
}

/**
 * A keyring as made before Argon2id, for tests and the upgrade's own checks: PBKDF2-SHA-256 at `iterations`.
 * Devices no longer make these (the server refuses them as new keyrings).
 */
export async function createPbkdf2Keyring(passphrase: string, iterations = KDF_ITERATIONS): Promise<{ keyring: Keyring; recoveryKey: string; dataKey: CryptoKey }> {
  const extractable = await subtle().generateKey({ name: 'AES-GCM', length: 256 }, true, ['encrypt', 'decrypt']);
  const { recovery, recoveryKey } = await recoveryWrap(extractable);
  const salt = random(16);
  const kdf = { kdf: 'PBKDF2-SHA-256' as const, iterations };
  const keyring: Keyring = { version: 1, passphrase: { ...kdf, salt: toBase64(salt), wrapped: await wrap(extractable, await passphraseKey(passphrase, salt, kdf)) }, recovery };
  return { keyring, recoveryKey, dataKey: await lockedCopy(extractable) };
}

async function openByPassphrase(keyring: Keyring, passphrase: string, extractable = false): Promise<CryptoKey> {
  const { salt, wrapped } = keyring.passphrase;
  return unwrap(wrapped, await passphraseKey(passphrase, fromBase64(salt), keyring.passphrase), extractable);
}

export async function unlockWithPassphrase(keyring: Keyring, passphrase: string): Promise<CryptoKey> {
  return openByPassphrase(keyring, passphrase);
}

export async function unlockWithRecoveryKey(keyring: Keyring, recoveryKey: string): Promise<CryptoKey> {
  const bytes = parseRecoveryKey(recoveryKey);
  if (!bytes) throw new JournalLockedError('That recovery key is not complete: it has 52 letters and digits.');
  return unwrap(keyring.recovery.wrapped, await recoveryWrappingKey(bytes, fromBase64(keyring.recovery.salt)));
}

/**
 * Unlocks with the passphrase and, when the keyring's KDF is weaker than today's (PBKDF2, or Argon2id below
 * the current parameters), wraps the same data key again under Argon2id: one derivation of each, and
 * `upgraded` is the keyring to store (null when it was already strong). Records are untouched.
 */
export async function unlockAndUpgrade(
  keyring: Keyring,
  passphrase: string,
  params?: Argon2idParams,
  /** Also wrap the data key under this key (the biometric secret's: decision 0065), while it is opened from the passphrase. */
  alsoWrapFor?: CryptoKey,
): Promise<{ dataKey: CryptoKey; upgraded: NewKeyring | null; wrappedFor?: Wrapped }> {
  if (!needsUpgrade(keyring) && !alsoWrapFor) return { dataKey: await openByPassphrase(keyring, passphrase), upgraded: null };
  const extractable = await openByPassphrase(keyring, passphrase, true);
  return {
    dataKey: await lockedCopy(extractable),
    upgraded: needsUpgrade(keyring) ? { ...keyring, passphrase: await passphraseWrap(extractable, passphrase, params) } : null,
    ...(alsoWrapFor ? { wrappedFor: await wrap(extractable, alsoWrapFor) } : {}),
  };
}

/** Opens a data key wrapped by `unlockAndUpgrade`'s `alsoWrapFor`: not extractable; JournalLockedError when `by` is not the key. */
export function openWrapped(wrapped: Wrapped, by: CryptoKey): Promise<CryptoKey> {
  return unwrap(wrapped, by);
}

/**
 * A new passphrase for the same data key (after unlocking with the old one or the recovery key):
 * the data key is re-wrapped with a fresh salt, under Argon2id; the recovery wrap is kept. The data key
 * must be opened as extractable for this, once, from whichever secret the person has.
 */
export async function changePassphrase(keyring: Keyring, opened: { passphrase: string } | { recoveryKey: string }, newPassphrase: string, params?: Argon2idParams): Promise<NewKeyring> {
  let extractable: CryptoKey;
  if ('passphrase' in opened) {
    extractable = await openByPassphrase(keyring, opened.passphrase, true);
  } else {
    const bytes = parseRecoveryKey(opened.recoveryKey);
    if (!bytes) throw new JournalLockedError('That recovery key is not complete: it has 52 letters and digits.');
    extractable = await unwrap(keyring.recovery.wrapped, await recoveryWrappingKey(bytes, fromBase64(keyring.recovery.salt)), true);
  }
  return { ...keyring, passphrase: await passphraseWrap(extractable, newPassphrase, params) };
}

// ---- earlier data keys, kept through rotations

const previousData = (generation: number) => new TextEncoder().encode(`harbour-mind journal previous key v1|${String(generation)}`);

/** The earlier data keys a keyring carries, opened with its current one (newest first). */
export async function openPreviousKeys(keyring: Keyring, dataKey: CryptoKey): Promise<CryptoKey[]> {
  const keys: CryptoKey[] = [];
  for (const sealed of keyring.previous ?? []) {
    let raw: Uint8Array<ArrayBuffer>;
    try {
      raw = new Uint8Array(await subtle().decrypt({ name: 'AES-GCM', iv: fromBase64(sealed.iv), additionalData: previousData(sealed.generation) }, dataKey, fromBase64(sealed.data)));
    } catch {
      throw new JournalLockedError('This journal’s keyring is damaged and cannot be opened.');
    }
    keys.push(await subtle().importKey('raw', raw, 'AES-GCM', false, ['encrypt', 'decrypt']));
    raw.fill(0);
  }
  return keys;
}

/**
 * Rotation (issue 36, item 3; decision 0061), knowing the current passphrase: a new random data key, the
 * next generation, a new recovery key (the old one stops opening the keyring), the passphrase (the same or a
 * new one) wrapped anew under Argon2id, and the data keys replaced so far sealed under the new key, newest
 * first (at most JOURNAL_PREVIOUS_KEYS_MAX), so that records not yet sealed again still open on any device
 * that unlocks the new keyring. The caller stores the keyring, then seals every record again.
 */
export async function rotateKeyring(keyring: Keyring, passphrase: string, newPassphrase: string, params?: Argon2idParams): Promise<{ keyring: NewKeyring & { generation: number }; recoveryKey: string; keys: OpenedKeys }> {
  const old = await openByPassphrase(keyring, passphrase, true);
  const replaced: { generation: number; raw: Uint8Array<ArrayBuffer> }[] = [{ generation: generationOf(keyring), raw: new Uint8Array(await subtle().exportKey('raw', old)) }];
  for (const sealed of keyring.previous ?? []) {
    try {
      replaced.push({ generation: sealed.generation, raw: new Uint8Array(await subtle().decrypt({ name: 'AES-GCM', iv: fromBase64(sealed.iv), additionalData: previousData(sealed.generation) }, old, fromBase64(sealed.data))) });
    } catch {
      throw new JournalLockedError('This journal’s keyring is damaged and cannot be opened.');
    }
  }
  const next = await subtle().generateKey({ name: 'AES-GCM', length: 256 }, true, ['encrypt', 'decrypt']);
  const previous: PreviousKey[] = [];
  for (const { generation, raw } of replaced.slice(0, JOURNAL_PREVIOUS_KEYS_MAX)) {
    const iv = random(12);
    previous.push({ generation, iv: toBase64(iv), data: toBase64(new Uint8Array(await subtle().encrypt({ name: 'AES-GCM', iv, additionalData: previousData(generation) }, next, raw))) });
  }
  const previousKeys = await Promise.all(replaced.slice(0, JOURNAL_PREVIOUS_KEYS_MAX).map(({ raw }) => subtle().importKey('raw', raw, 'AES-GCM', false, ['encrypt', 'decrypt'])));
  for (const { raw } of replaced) raw.fill(0);
  const { recovery, recoveryKey } = await recoveryWrap(next);
  const rotated: NewKeyring & { generation: number } = { version: 1, generation: generationOf(keyring) + 1, passphrase: await passphraseWrap(next, newPassphrase, params), recovery, previous };
  return { keyring: rotated, recoveryKey, keys: { dataKey: await lockedCopy(next), previousKeys } };
}

// ---- records

const additionalData = (accountId: string, recordId: string) => new TextEncoder().encode(`harbour-mind journal v1|${accountId}|${recordId}`);

/** The bucket a plaintext of `length` bytes is padded to. */
export function paddedLength(length: number): number {
  if (length <= PAD_MIN) return PAD_MIN;
  if (length <= PAD_DOUBLING_UP_TO) return 2 ** Math.ceil(Math.log2(length));
  return Math.ceil(length / PAD_STEP) * PAD_STEP;
}

// Padded up to the bucket. Records sealed before buckets (256-byte steps) open the same way.
const pad = (bytes: Uint8Array) => padTo(bytes, paddedLength(bytes.length + 4));

function unpad(bytes: Uint8Array): Uint8Array {
  const text = unpadded(bytes);
  if (!text) throw new JournalLockedError('This entry is damaged and cannot be read.');
  return text;
}

export async function sealRecord(dataKey: CryptoKey, accountId: string, recordId: string, value: unknown): Promise<SealedRecord> {
  const iv = random(12);
  const plain = pad(new TextEncoder().encode(JSON.stringify(value)));
  const data = new Uint8Array(await subtle().encrypt({ name: 'AES-GCM', iv, additionalData: additionalData(accountId, recordId) }, dataKey, plain));
  return { iv: toBase64(iv), data: toBase64(data) };
}

/** Opens a record; a changed byte, another account's or another id's record is refused (AES-GCM's tag). */
export async function openRecord<T>(dataKey: CryptoKey, accountId: string, recordId: string, sealed: SealedRecord): Promise<T> {
  let plain: Uint8Array;
  try {
    plain = new Uint8Array(await subtle().decrypt({ name: 'AES-GCM', iv: fromBase64(sealed.iv), additionalData: additionalData(accountId, recordId) }, dataKey, fromBase64(sealed.data)));
  } catch {
    throw new JournalLockedError('This entry is damaged or belongs to another journal, and cannot be read.');
  }
  return JSON.parse(new TextDecoder().decode(unpad(plain))) as T;
}
