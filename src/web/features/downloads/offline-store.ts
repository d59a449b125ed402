/**
 * Offline copies of favourite meditations (premium). Audio is stored in IndexedDB encrypted with
 * AES-GCM under a per-user key that is generated in the browser as non-extractable: script can use
 * it but never read it out, so the copied bytes are useless outside this origin and profile.
 * A copy plays only while the subscription that paid for it is still current.
 * Inside the apps (issue 19, item 5) the sealed audio is a file of its own on the device and the key
 * is kept in the device's secure store (platform().offlineFiles); the records stay here.
 */
import { openDB, type DBSchema, type IDBPDatabase } from 'idb';
import type { MeditationCard } from '#shared/contracts/catalogue.ts';
import { OFFLINE_DB_NAME } from '#web/lib/forget-personal-data.ts';
import { platform } from '#web/platform/platform.ts';

type OfflineRecord = {
  /** `${userId}:${meditationId}` */
  key: string;
  userId: string;
  meditationId: string;
  title: string;
  /** The card as it was when downloaded, so the favourites list still shows it offline. */
  meditation: MeditationCard;
  transcript: string | null;
  mimeType: string;
  /** On the web the sealed audio is kept in the record; inside the apps it is the file at `localPath`. */
  iv?: Uint8Array<ArrayBuffer>;
  cipher?: ArrayBuffer;
  localPath?: string;
  size: number;
  savedAt: string;
};

/** Metadata only (no audio), for lists and badges. */
export type OfflineCopy = Omit<OfflineRecord, 'cipher' | 'iv'>;

/** What the device knows about the user's subscription when it cannot ask the server. */
export type OfflineEntitlement = { userId: string; subscribed: boolean; validUntil: string | null; checkedAt: string };

interface OfflineSchema extends DBSchema {
  keys: { key: string; value: { userId: string; key: CryptoKey } };
  audio: { key: string; value: OfflineRecord; indexes: { byUser: string } };
  entitlement: { key: string; value: OfflineEntitlement };
}

const IV_BYTES = 12;

let dbPromise: Promise<IDBPDatabase<OfflineSchema>> | null = null;
function db() {
  dbPromise ??= openDB<OfflineSchema>(OFFLINE_DB_NAME, 1, {
    upgrade(database) {
      database.createObjectStore('keys', { keyPath: 'userId' });
      database.createObjectStore('audio', { keyPath: 'key' }).createIndex('byUser', 'userId');
      database.createObjectStore('entitlement', { keyPath: 'userId' });
    },
    // Signing out inside the apps deletes this database (forget-personal-data.ts): let it go.
    blocking() {
      void dbPromise?.then((open) => open.close());
      dbPromise = null;
    },
  });
  return dbPromise;
}

export class OfflineCopyError extends Error {
  constructor(
    readonly reason: 'missing' | 'lapsed' | 'corrupt',
    message: string,
  ) {
    super(message);
  }
}

const recordKey = (userId: string, meditationId: string) => `${userId}:${meditationId}`;

/** The spec's `encryptionKey`: one per user per device (inside the apps, one per device), never extractable. */
async function encryptionKey(userId: string): Promise<CryptoKey> {
  const files = platform().offlineFiles;
  if (files) return files.key();
  const database = await db();
  const existing = await database.get('keys', userId);
  if (existing) return existing.key;
  const key = await crypto.subtle.generateKey({ name: 'AES-GCM', length: 256 }, false, ['encrypt', 'decrypt']);
  await database.put('keys', { userId, key });
  return key;
}

/** A file on the device holds the iv, then the ciphertext. */
function joinSealed(iv: Uint8Array, cipher: ArrayBuffer): Uint8Array {
  const sealed = new Uint8Array(IV_BYTES + cipher.byteLength);
  sealed.set(iv, 0);
  sealed.set(new Uint8Array(cipher), IV_BYTES);
  return sealed;
}

const metadataOf = ({ cipher: _c, iv: _i, ...copy }: OfflineRecord): OfflineCopy => copy;

export async function saveOfflineCopy(input: { userId: string; meditation: MeditationCard; transcript: string | null; mimeType: string; audio: ArrayBuffer }): Promise<OfflineCopy> {
  const meditationId = input.meditation.id;
  const key = await encryptionKey(input.userId);
  const iv = crypto.getRandomValues(new Uint8Array(12));
  // The ids are bound in as additional data: a record moved to another key slot will not decrypt.
  const cipher = await crypto.subtle.encrypt({ name: 'AES-GCM', iv, additionalData: new TextEncoder().encode(recordKey(input.userId, meditationId)) }, key, input.audio);
  const files = platform().offlineFiles;
  const sealed = files ? { localPath: await files.write(meditationId, joinSealed(iv, cipher)) } : { iv, cipher };
  const record: OfflineRecord = {
    key: recordKey(input.userId, meditationId),
    userId: input.userId,
    meditationId,
    title: input.meditation.title,
    meditation: input.meditation,
    transcript: input.transcript,
    mimeType: input.mimeType,
    ...sealed,
    size: input.audio.byteLength,
    savedAt: new Date().toISOString(),
  };
  await (await db()).put('audio', record);
  return metadataOf(record);
}

export async function listOfflineCopies(userId: string): Promise<OfflineCopy[]> {
  const records = await (await db()).getAllFromIndex('audio', 'byUser', userId);
  return records.map(metadataOf);
}

export async function removeOfflineCopy(userId: string, meditationId: string): Promise<void> {
  await platform().offlineFiles?.remove(meditationId);
  await (await db()).delete('audio', recordKey(userId, meditationId));
}

/**
 * Inside the apps a lapsed subscription removes the copies from the device (issue 19, item 5): the
 * files, their key and their records. The web keeps them paused until renewal, as before.
 */
export async function removeCopiesOnLapse(userId: string): Promise<void> {
  const files = platform().offlineFiles;
  if (!files) return;
  const records = await db();
  const keys = await records.getAllKeysFromIndex('audio', 'byUser', userId);
  if (keys.length === 0) return;
  await files.removeAll();
  await Promise.all(keys.map((key) => records.delete('audio', key)));
}

export async function recordEntitlement(entitlement: OfflineEntitlement): Promise<void> {
  await (await db()).put('entitlement', entitlement);
}

/** Whether the last known subscription still covers now. */
export function entitlementCurrent(entitlement: OfflineEntitlement | undefined, now = Date.now()): boolean {
  if (!entitlement?.subscribed) return false;
  return entitlement.validUntil === null || Date.parse(entitlement.validUntil) > now;
}

/** The sealed bytes of a copy, from its record on the web or its file inside the apps. */
async function sealedOf(record: OfflineRecord): Promise<{ iv: Uint8Array<ArrayBuffer>; cipher: ArrayBuffer } | null> {
  if (record.iv && record.cipher) return { iv: record.iv, cipher: record.cipher };
  const bytes = await platform().offlineFiles?.read(record.meditationId);
  if (!bytes || bytes.byteLength <= IV_BYTES) return null;
  return { iv: new Uint8Array(bytes.slice(0, IV_BYTES)), cipher: bytes.slice(IV_BYTES).buffer };
}

/**
 * Opens a copy for the player: a URL to play (an object URL on the web, the opened file's WebView URL
 * inside the apps) and `release` to free it. Throws OfflineCopyError when missing, lapsed or unreadable.
 */
export async function openOfflineCopy(userId: string, meditationId: string): Promise<{ url: string; release: () => void; copy: OfflineCopy }> {
  const database = await db();
  const record = await database.get('audio', recordKey(userId, meditationId));
  if (!record) throw new OfflineCopyError('missing', 'No offline copy on this device.');
  if (!entitlementCurrent(await database.get('entitlement', userId))) {
    throw new OfflineCopyError('lapsed', 'Your subscription has ended, so offline copies are paused until you renew.');
  }
  const sealed = await sealedOf(record);
  if (!sealed) throw new OfflineCopyError('corrupt', 'This offline copy could not be read.');
  let plain: ArrayBuffer;
  try {
    plain = await crypto.subtle.decrypt({ name: 'AES-GCM', iv: sealed.iv, additionalData: new TextEncoder().encode(record.key) }, await encryptionKey(userId), sealed.cipher);
  } catch {
    throw new OfflineCopyError('corrupt', 'This offline copy could not be read.');
  }
  const copy = metadataOf(record);
  const files = platform().offlineFiles;
  if (files) return { ...(await files.playable(meditationId, plain)), copy };
  const url = URL.createObjectURL(new Blob([plain], { type: record.mimeType }));
  return { url, release: () => URL.revokeObjectURL(url), copy };
}
