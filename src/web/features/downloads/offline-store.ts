/**
 * Offline copies of favourite meditations (premium). Audio is stored in IndexedDB encrypted with
 * AES-GCM under a per-user key that is generated in the browser as non-extractable: script can use
 * it but never read it out, so the copied bytes are useless outside this origin and profile.
 * A copy plays only while the subscription that paid for it is still current.
 */
import { openDB, type DBSchema, type IDBPDatabase } from 'idb';
import type { MeditationCard } from '#shared/contracts/catalogue.ts';

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
  iv: Uint8Array<ArrayBuffer>;
  cipher: ArrayBuffer;
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

const OFFLINE_DB_NAME = 'harbour-mind-offline';

let dbPromise: Promise<IDBPDatabase<OfflineSchema>> | null = null;
function db() {
  dbPromise ??= openDB<OfflineSchema>(OFFLINE_DB_NAME, 1, {
    upgrade(database) {
      database.createObjectStore('keys', { keyPath: 'userId' });
      database.createObjectStore('audio', { keyPath: 'key' }).createIndex('byUser', 'userId');
      database.createObjectStore('entitlement', { keyPath: 'userId' });
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

/** The spec's `encryptionKey`: one per user per device, never extractable. */
async function encryptionKey(userId: string): Promise<CryptoKey> {
  const database = await db();
  const existing = await database.get('keys', userId);
  if (existing) return existing.key;
  const key = await crypto.subtle.generateKey({ name: 'AES-GCM', length: 256 }, false, ['encrypt', 'decrypt']);
  await database.put('keys', { userId, key });
  return key;
}

export async function saveOfflineCopy(input: { userId: string; meditation: MeditationCard; transcript: string | null; mimeType: string; audio: ArrayBuffer }): Promise<OfflineCopy> {
  const meditationId = input.meditation.id;
  const key = await encryptionKey(input.userId);
  const iv = crypto.getRandomValues(new Uint8Array(12));
  // The ids are bound in as additional data: a record moved to another key slot will not decrypt.
  const cipher = await crypto.subtle.encrypt({ name: 'AES-GCM', iv, additionalData: new TextEncoder().encode(recordKey(input.userId, meditationId)) }, key, input.audio);
  const record: OfflineRecord = {
    key: recordKey(input.userId, meditationId),
    userId: input.userId,
    meditationId,
    title: input.meditation.title,
    meditation: input.meditation,
    transcript: input.transcript,
    mimeType: input.mimeType,
    iv,
    cipher,
    size: input.audio.byteLength,
    savedAt: new Date().toISOString(),
  };
  await (await db()).put('audio', record);
  const { cipher: _c, iv: _i, ...copy } = record;
  return copy;
}

export async function listOfflineCopies(userId: string): Promise<OfflineCopy[]> {
  const records = await (await db()).getAllFromIndex('audio', 'byUser', userId);
  return records.map(({ cipher: _c, iv: _i, ...copy }) => copy);
}

export async function removeOfflineCopy(userId: string, meditationId: string): Promise<void> {
  await (await db()).delete('audio', recordKey(userId, meditationId));
}

export async function recordEntitlement(entitlement: OfflineEntitlement): Promise<void> {
  await (await db()).put('entitlement', entitlement);
}

/** Whether the last known subscription still covers now. */
export function entitlementCurrent(entitlement: OfflineEntitlement | undefined, now = Date.now()): boolean {
  if (!entitlement?.subscribed) return false;
  return entitlement.validUntil === null || Date.parse(entitlement.validUntil) > now;
}

/** Decrypts a copy into a Blob; throws OfflineCopyError when it is missing, lapsed or unreadable. */
export async function openOfflineCopy(userId: string, meditationId: string): Promise<{ blob: Blob; copy: OfflineCopy }> {
  const database = await db();
  const record = await database.get('audio', recordKey(userId, meditationId));
  if (!record) throw new OfflineCopyError('missing', 'No offline copy on this device.');
  if (!entitlementCurrent(await database.get('entitlement', userId))) {
    throw new OfflineCopyError('lapsed', 'Your subscription has ended, so offline copies are paused until you renew.');
  }
  const keyEntry = await database.get('keys', userId);
  if (!keyEntry) throw new OfflineCopyError('corrupt', 'The key for this offline copy is missing.');
  try {
    const plain = await crypto.subtle.decrypt({ name: 'AES-GCM', iv: record.iv, additionalData: new TextEncoder().encode(record.key) }, keyEntry.key, record.cipher);
    const { cipher: _c, iv: _i, ...copy } = record;
    return { blob: new Blob([plain], { type: record.mimeType }), copy };
  } catch {
    throw new OfflineCopyError('corrupt', 'This offline copy could not be read.');
  }
}
