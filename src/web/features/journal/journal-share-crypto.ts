/**
 * The crypto of a shared entry (issue 36, item 5; decision 0050). Each link has its own fresh random
 * 256-bit AES-GCM key, made on the sharer's device and written only into the link's fragment (the
 * part after `#`, which browsers never send to a server, nor in a Referer). The server receives the
 * IV and ciphertext; the journal's own data key is never used, so a link opens one entry and nothing
 * else, and revoking it costs nothing else.
 */
import type { CreateShareBody } from '#shared/contracts/journal-share.ts';
import type { SharedPayload, ShareExpiryDays } from '#shared/journal-share.ts';
import { fromBase64, toBase64, type SealedRecord } from '#web/features/journal/journal-crypto.ts';
import { padTo, unpadded } from '#web/features/journal/length-padding.ts';

const PAD_BLOCK = 256;
/** Bound into every sealed share, so a journal record (or any other ciphertext) cannot pass for one. */
const ADDITIONAL_DATA = new TextEncoder().encode('harbour-mind shared entry v1');
/** 32 bytes in base64url without padding. */
const KEY_PATTERN = /^[A-Za-z0-9_-]{43}$/;

export class ShareKeyError extends Error {
  constructor(readonly reason: 'missing' | 'wrong') {
    super(reason === 'missing' ? 'The link has no key.' : 'The key does not open this entry.');
    this.name = 'ShareKeyError';
  }
}

const subtle = () => globalThis.crypto.subtle;

const toBase64Url = (bytes: Uint8Array) => toBase64(bytes).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
const fromBase64Url = (text: string) => fromBase64(text.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - (text.length % 4)) % 4));

const pad = (bytes: Uint8Array) => padTo(bytes, Math.ceil((bytes.length + 4) / PAD_BLOCK) * PAD_BLOCK);

function unpad(bytes: Uint8Array): Uint8Array {
  const text = unpadded(bytes);
  if (!text) throw new ShareKeyError('wrong');
  return text;
}

/** Seals `value` under a new key: `sealed` goes to the server, `key` only into the link's fragment. */
export async function sealShare(value: unknown): Promise<{ key: string; sealed: SealedRecord }> {
  const cryptoKey = await subtle().generateKey({ name: 'AES-GCM', length: 256 }, true, ['encrypt', 'decrypt']);
  const iv = globalThis.crypto.getRandomValues(new Uint8Array(12));
  const data = new Uint8Array(await subtle().encrypt({ name: 'AES-GCM', iv, additionalData: ADDITIONAL_DATA }, cryptoKey, pad(new TextEncoder().encode(JSON.stringify(value)))));
  const key = toBase64Url(new Uint8Array(await subtle().exportKey('raw', cryptoKey)));
  return { key, sealed: { iv: toBase64(iv), data: toBase64(data) } };
}

/** Opens what `sealShare` sealed; a missing, malformed or wrong key, or a changed byte, is a ShareKeyError. */
export async function openShare(key: string, sealed: SealedRecord): Promise<unknown> {
  if (!key) throw new ShareKeyError('missing');
  if (!KEY_PATTERN.test(key)) throw new ShareKeyError('wrong');
  let plain: Uint8Array;
  try {
    const cryptoKey = await subtle().importKey('raw', fromBase64Url(key), { name: 'AES-GCM', length: 256 }, false, ['decrypt']);
    plain = new Uint8Array(await subtle().decrypt({ name: 'AES-GCM', iv: fromBase64(sealed.iv), additionalData: ADDITIONAL_DATA }, cryptoKey, fromBase64(sealed.data)));
  } catch {
    throw new ShareKeyError('wrong');
  }
  try {
    return JSON.parse(new TextDecoder().decode(unpad(plain))) as unknown;
  } catch {
    throw new ShareKeyError('wrong');
  }
}

/** The whole link: the page's address on this server, then the key after `#`. */
export const shareLink = (origin: string, id: string, key: string) => `${origin.replace(/\/+$/, '')}/shared/${encodeURIComponent(id)}#${key}`;

/** The key a page's `location.hash` carries ('' when there is none). */
export const keyFromHash = (hash: string) => hash.replace(/^#/, '').trim();

/**
 * Everything the device sends to create a link, and the key it keeps for the link: the body holds the
 * sealed payload and the expiry, never the key nor a word of the entry.
 */
export async function shareRequest(payload: SharedPayload, expiresInDays: ShareExpiryDays): Promise<{ body: CreateShareBody; key: string }> {
  const { key, sealed } = await sealShare(payload);
  return { body: { iv: sealed.iv, data: sealed.data, expiresInDays }, key };
}
