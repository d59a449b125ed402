/**
 * The journal's end-to-end encryption (issue 18; key hierarchy in decision 0031). Everything here
 * runs on the person's device with WebCrypto; the server only ever stores what `sealRecord` and
 * `createKeyring` return, and cannot open any of it.
 *
 * - One random 256-bit data key per account encrypts every record (AES-GCM, a fresh 96-bit IV each
 *   time, the account and record id bound in as additional data so a record cannot be moved).
 * - The data key is stored twice, wrapped: under a key derived from the person's passphrase
 *   (PBKDF2-SHA-256, 600 000 iterations, random salt), and under a key derived from a random
 *   recovery key shown once (HKDF-SHA-256: it is already 256 bits of randomness).
 * - Changing the passphrase re-wraps the same data key, so no record needs re-encrypting.
 * - Plaintext is padded to buckets (issue 36, item 4; decision 0055): at least 2 KiB, then powers of two up
 *   to 32 KiB, then 8 KiB steps. A mood check, a CBT worksheet, a DBT record and a deletion of everyday
 *   length are all one size; only long entries show roughly how long they are.
 */

export const KDF_ITERATIONS = 600_000;
/** The smallest sealed plaintext: every everyday entry, of any type, and every deletion fit in it. */
const PAD_MIN = 2048;
/** Up to this, sizes double; past it they grow in steps of PAD_STEP, so the largest entry stays within the API's record limit. */
const PAD_DOUBLING_UP_TO = 32 * 1024;
const PAD_STEP = 8 * 1024;
const RECOVERY_INFO = new TextEncoder().encode('harbour-mind journal recovery key v1');

type Wrapped = { iv: string; data: string };
/** What the server keeps for an account's journal: nothing in it opens a record without the passphrase or the recovery key. */
export type Keyring = {
  version: 1;
  passphrase: { kdf: 'PBKDF2-SHA-256'; iterations: number; salt: string; wrapped: Wrapped };
  recovery: { kdf: 'HKDF-SHA-256'; salt: string; wrapped: Wrapped };
};
export type SealedRecord = { iv: string; data: string };

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

async function passphraseKey(passphrase: string, salt: Uint8Array<ArrayBuffer>, iterations: number): Promise<CryptoKey> {
  const material = await subtle().importKey('raw', new TextEncoder().encode(passphrase.normalize('NFC')), 'PBKDF2', false, ['deriveKey']);
  return subtle().deriveKey({ name: 'PBKDF2', hash: 'SHA-256', salt, iterations }, material, { name: 'AES-GCM', length: 256 }, false, ['wrapKey', 'unwrapKey']);
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

async function unwrap(wrapped: Wrapped, by: CryptoKey): Promise<CryptoKey> {
  try {
    // Not extractable once opened: the page can use the key, never read it out.
    return await subtle().unwrapKey('raw', fromBase64(wrapped.data), by, { name: 'AES-GCM', iv: fromBase64(wrapped.iv) }, { name: 'AES-GCM', length: 256 }, false, ['encrypt', 'decrypt']);
  } catch {
    throw new JournalLockedError();
  }
}

/** A new journal: its data key, the keyring to store, and the recovery key to show once. */
export async function createKeyring(passphrase: string, iterations = KDF_ITERATIONS): Promise<{ keyring: Keyring; recoveryKey: string; dataKey: CryptoKey }> {
  const extractable = await subtle().generateKey({ name: 'AES-GCM', length: 256 }, true, ['encrypt', 'decrypt']);
  const salt = random(16);
  const recovery = random(32);
  const recoverySalt = random(16);
  const keyring: Keyring = {
    version: 1,
    passphrase: { kdf: 'PBKDF2-SHA-256', iterations, salt: toBase64(salt), wrapped: await wrap(extractable, await passphraseKey(passphrase, salt, iterations)) },
    recovery: { kdf: 'HKDF-SHA-256', salt: toBase64(recoverySalt), wrapped: await wrap(extractable, await recoveryWrappingKey(recovery, recoverySalt)) },
  };
  // From here on only a non-extractable copy is kept.
  const dataKey = await unwrap(keyring.passphrase.wrapped, await passphraseKey(passphrase, salt, iterations));
  return { keyring, recoveryKey: formatRecoveryKey(recovery), dataKey };
}

export async function unlockWithPassphrase(keyring: Keyring, passphrase: string): Promise<CryptoKey> {
  const { salt, iterations, wrapped } = keyring.passphrase;
  return unwrap(wrapped, await passphraseKey(passphrase, fromBase64(salt), iterations));
}

export async function unlockWithRecoveryKey(keyring: Keyring, recoveryKey: string): Promise<CryptoKey> {
  const bytes = parseRecoveryKey(recoveryKey);
  if (!bytes) throw new JournalLockedError('That recovery key is not complete: it has 52 letters and digits.');
  return unwrap(keyring.recovery.wrapped, await recoveryWrappingKey(bytes, fromBase64(keyring.recovery.salt)));
}

/**
 * A new passphrase for the same data key (after unlocking with the old one or the recovery key):
 * the data key is re-wrapped with a fresh salt; the recovery wrap is kept. The data key must be
 * opened as extractable for this, once, from whichever secret the person has.
 */
export async function changePassphrase(keyring: Keyring, opened: { passphrase: string } | { recoveryKey: string }, newPassphrase: string, iterations = KDF_ITERATIONS): Promise<Keyring> {
  let by: CryptoKey;
  let wrapped: Wrapped;
  if ('passphrase' in opened) {
    by = await passphraseKey(opened.passphrase, fromBase64(keyring.passphrase.salt), keyring.passphrase.iterations);
    wrapped = keyring.passphrase.wrapped;
  } else {
    const bytes = parseRecoveryKey(opened.recoveryKey);
    if (!bytes) throw new JournalLockedError('That recovery key is not complete: it has 52 letters and digits.');
    by = await recoveryWrappingKey(bytes, fromBase64(keyring.recovery.salt));
    wrapped = keyring.recovery.wrapped;
  }
  let extractable: CryptoKey;
  try {
    extractable = await subtle().unwrapKey('raw', fromBase64(wrapped.data), by, { name: 'AES-GCM', iv: fromBase64(wrapped.iv) }, { name: 'AES-GCM', length: 256 }, true, ['encrypt', 'decrypt']);
  } catch {
    throw new JournalLockedError();
  }
  const salt = random(16);
  return { ...keyring, passphrase: { kdf: 'PBKDF2-SHA-256', iterations, salt: toBase64(salt), wrapped: await wrap(extractable, await passphraseKey(newPassphrase, salt, iterations)) } };
}

// ---- records

const additionalData = (accountId: string, recordId: string) => new TextEncoder().encode(`harbour-mind journal v1|${accountId}|${recordId}`);

/** The bucket a plaintext of `length` bytes is padded to. */
export function paddedLength(length: number): number {
  if (length <= PAD_MIN) return PAD_MIN;
  if (length <= PAD_DOUBLING_UP_TO) return 2 ** Math.ceil(Math.log2(length));
  return Math.ceil(length / PAD_STEP) * PAD_STEP;
}

function pad(bytes: Uint8Array): Uint8Array<ArrayBuffer> {
  // 4 bytes of length, the text, then zeros up to the bucket. Records sealed before buckets (256-byte steps) open the same way.
  const length = paddedLength(bytes.length + 4);
  const out = new Uint8Array(length);
  new DataView(out.buffer).setUint32(0, bytes.length);
  out.set(bytes, 4);
  return out;
}

function unpad(bytes: Uint8Array): Uint8Array {
  const length = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getUint32(0);
  if (length > bytes.length - 4) throw new JournalLockedError('This entry is damaged and cannot be read.');
  return bytes.subarray(4, 4 + length);
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
