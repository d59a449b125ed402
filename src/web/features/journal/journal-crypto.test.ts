import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  changePassphrase,
  createKeyring,
  createPbkdf2Keyring,
  needsUpgrade,
  openPreviousKeys,
  rotateKeyring,
  unlockAndUpgrade,
  formatRecoveryKey,
  fromBase64,
  JournalLockedError,
  KDF_ITERATIONS,
  openRecord,
  paddedLength,
  parseRecoveryKey,
  sealRecord,
  toBase64,
  unlockWithPassphrase,
  unlockWithRecoveryKey,
} from '#web/features/journal/journal-crypto.ts';

// The real parameters (64 MiB, 3 passes, 4 lanes) take about a second each time; the mechanics are the same with less.
const FAST = { memoryKiB: 1024, iterations: 1, parallelism: 1 };
const entry = { id: '1', date: '2026-11-25', type: 'mindfulness', content: { gratitude: 'The sea at dawn, and tea.' } };

describe('journal encryption (decision 0031)', () => {
  it('round-trips any record under its account and id, and the ciphertext holds none of the words', async () => {
    const { dataKey } = await createKeyring('correct horse battery', FAST);
    await fc.assert(
      fc.asyncProperty(fc.jsonValue(), fc.uuid(), async (value, id) => {
        const sealed = await sealRecord(dataKey, 'account-1', id, value);
        expect(await openRecord(dataKey, 'account-1', id, sealed)).toEqual(JSON.parse(JSON.stringify(value)));
      }),
      { numRuns: 60 },
    );
    const sealed = await sealRecord(dataKey, 'account-1', 'r1', entry);
    const bytes = new TextDecoder('latin1').decode(fromBase64(sealed.data));
    for (const word of ['sea', 'dawn', 'tea', 'gratitude', '2026']) expect(bytes).not.toContain(word);
  });

  it('uses a fresh IV every time, and pads so a short and a longer entry look the same size', async () => {
    const { dataKey } = await createKeyring('correct horse battery', FAST);
    const a = await sealRecord(dataKey, 'acc', 'r', entry);
    const b = await sealRecord(dataKey, 'acc', 'r', entry);
    expect(a.iv).not.toBe(b.iv);
    expect(a.data).not.toBe(b.data);
    const short = await sealRecord(dataKey, 'acc', 'r', { t: 'a' });
    const longer = await sealRecord(dataKey, 'acc', 'r', { t: 'a'.repeat(1500) });
    expect(fromBase64(short.data).length).toBe(fromBase64(longer.data).length);
  });

  it('pads to buckets that hide the entry type: a mood check, a CBT worksheet, a DBT record and a deletion are one size (issue 36, item 4)', async () => {
    const { dataKey } = await createKeyring('correct horse battery', FAST);
    const words = 'I noticed the tightness in my chest and named it. '.repeat(8);
    const versions = [
      { entry: { id: '1', type: 'mindfulness', date: '2026-11-28', timeOfDay: 'evening', content: { timeOfDay: 'evening', gratitude: 'tea', intention: '', mood: 4, mindfulMoments: '', challenges: '', reflection: '' } }, updatedAt: 1, device: crypto.randomUUID(), rev: 1 },
      { entry: { id: '2', type: 'cbt', date: '2026-11-28', timeOfDay: 'evening', content: { thoughtPatterns: words, cognitiveDistortions: ['all-or-nothing', 'mental-filter', 'should-statements'], reframe: words } }, updatedAt: 1, device: crypto.randomUUID(), rev: 7 },
      { entry: { id: '3', type: 'dbt', date: '2026-11-28', timeOfDay: 'evening', content: { situation: words, emotions: 'fear', intensity: 8, thoughts: words, dbtSkills: ['grounding'], copingSkills: '', reflection: '' } }, updatedAt: 1, device: crypto.randomUUID(), rev: 2 },
      { entry: null, updatedAt: 1, device: crypto.randomUUID(), rev: 12 },
    ];
    const sizes = await Promise.all(versions.map(async (v) => fromBase64((await sealRecord(dataKey, 'acc', 'r', v)).data).length));
    expect(new Set(sizes).size).toBe(1);
    expect(paddedLength(1)).toBe(2048);
    expect(paddedLength(2049)).toBe(4096);
    expect(paddedLength(20_000)).toBe(32_768);
    expect(paddedLength(40_000)).toBe(40_960);
    // The largest entry the form allows (five fields of 5 000 three-byte characters) still fits the API's 160 K base64 characters.
    expect(Math.ceil(((paddedLength(80_000) + 16) * 4) / 3)).toBeLessThanOrEqual(160 * 1024);
  });

  it('refuses a tampered record, another id’s or another account’s', async () => {
    const { dataKey } = await createKeyring('correct horse battery', FAST);
    const sealed = await sealRecord(dataKey, 'acc', 'r1', entry);
    const bytes = fromBase64(sealed.data);
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 0, max: bytes.length - 1 }), fc.integer({ min: 1, max: 255 }), async (at, flip) => {
        const changed = bytes.slice();
        changed[at] ^= flip;
        await expect(openRecord(dataKey, 'acc', 'r1', { iv: sealed.iv, data: toBase64(changed) })).rejects.toBeInstanceOf(JournalLockedError);
      }),
      { numRuns: 40 },
    );
    await expect(openRecord(dataKey, 'acc', 'r2', sealed)).rejects.toBeInstanceOf(JournalLockedError);
    await expect(openRecord(dataKey, 'other', 'r1', sealed)).rejects.toBeInstanceOf(JournalLockedError);
    const stranger = (await createKeyring('another person', FAST)).dataKey;
    await expect(openRecord(stranger, 'acc', 'r1', sealed)).rejects.toBeInstanceOf(JournalLockedError);
  });

  it('opens with the passphrase or the recovery key, and not with a wrong one', async () => {
    const { keyring, recoveryKey, dataKey } = await createKeyring('correct horse battery', FAST);
    const sealed = await sealRecord(dataKey, 'acc', 'r1', entry);
    expect(await openRecord(await unlockWithPassphrase(keyring, 'correct horse battery'), 'acc', 'r1', sealed)).toEqual(entry);
    expect(await openRecord(await unlockWithRecoveryKey(keyring, recoveryKey), 'acc', 'r1', sealed)).toEqual(entry);
    // As a person types it: lower case, spaces, O for 0.
    const typed = recoveryKey.toLowerCase().replace(/-/g, ' ').replace(/0/g, 'o');
    expect(await openRecord(await unlockWithRecoveryKey(keyring, typed), 'acc', 'r1', sealed)).toEqual(entry);

    await expect(unlockWithPassphrase(keyring, 'correct horse battery ')).rejects.toBeInstanceOf(JournalLockedError);
    await expect(unlockWithPassphrase(keyring, '')).rejects.toBeInstanceOf(JournalLockedError);
    const wrongKey = formatRecoveryKey(new Uint8Array(32).fill(7));
    await expect(unlockWithRecoveryKey(keyring, wrongKey)).rejects.toBeInstanceOf(JournalLockedError);
    await expect(unlockWithRecoveryKey(keyring, recoveryKey.slice(0, -5))).rejects.toThrow('52 letters and digits');
    // The opened key cannot be read out of the page.
    expect((await unlockWithPassphrase(keyring, 'correct horse battery')).extractable).toBe(false);
    expect(dataKey.extractable).toBe(false);
  });

  it('changes the passphrase by re-wrapping the same data key: old records open, the old passphrase no longer does', async () => {
    const { keyring, recoveryKey, dataKey } = await createKeyring('first passphrase', FAST);
    const sealed = await sealRecord(dataKey, 'acc', 'r1', entry);
    const changed = await changePassphrase(keyring, { passphrase: 'first passphrase' }, 'second passphrase', FAST);
    expect(changed.passphrase.salt).not.toBe(keyring.passphrase.salt);
    expect(changed.recovery).toEqual(keyring.recovery);
    await expect(unlockWithPassphrase(changed, 'first passphrase')).rejects.toBeInstanceOf(JournalLockedError);
    expect(await openRecord(await unlockWithPassphrase(changed, 'second passphrase'), 'acc', 'r1', sealed)).toEqual(entry);
    // Forgotten passphrase: the recovery key sets a new one.
    const recovered = await changePassphrase(changed, { recoveryKey }, 'third passphrase', FAST);
    expect(await openRecord(await unlockWithPassphrase(recovered, 'third passphrase'), 'acc', 'r1', sealed)).toEqual(entry);
    await expect(changePassphrase(keyring, { passphrase: 'not it' }, 'x', FAST)).rejects.toBeInstanceOf(JournalLockedError);
  });

  it('stores Argon2id at Bitwarden’s defaults by default, and normalises the passphrase so the same words always open it (decision 0061)', async () => {
    const { keyring } = await createKeyring('caf\u00e9 au lait');
    expect(keyring.passphrase).toMatchObject({ kdf: 'Argon2id', memoryKiB: 65_536, iterations: 3, parallelism: 4 });
    expect(keyring.generation).toBe(1);
    expect(needsUpgrade(keyring)).toBe(false);
    // The same word typed with a combining accent.
    await expect(unlockWithPassphrase(keyring, 'cafe\u0301 au lait')).resolves.toBeDefined();
  });

  it('upgrades a PBKDF2 keyring at unlock: the same data key under Argon2id, the recovery wrap kept, the old passphrase wrap gone (decision 0061)', async () => {
    const { keyring, recoveryKey, dataKey } = await createPbkdf2Keyring('old pbkdf2 words', KDF_ITERATIONS);
    expect(KDF_ITERATIONS).toBeGreaterThanOrEqual(600_000);
    expect(needsUpgrade(keyring)).toBe(true);
    const sealed = await sealRecord(dataKey, 'acc', 'r1', entry);
    await expect(unlockAndUpgrade(keyring, 'not the words')).rejects.toBeInstanceOf(JournalLockedError);
    const { dataKey: opened, upgraded } = await unlockAndUpgrade(keyring, 'old pbkdf2 words');
    expect(opened.extractable).toBe(false);
    expect(await openRecord(opened, 'acc', 'r1', sealed)).toEqual(entry);
    expect(upgraded?.passphrase).toMatchObject({ kdf: 'Argon2id', memoryKiB: 65_536, iterations: 3, parallelism: 4 });
    expect(upgraded?.passphrase.salt).not.toBe(keyring.passphrase.salt);
    expect(upgraded?.recovery).toEqual(keyring.recovery);
    expect(needsUpgrade(upgraded!)).toBe(false);
    expect(await openRecord(await unlockWithPassphrase(upgraded!, 'old pbkdf2 words'), 'acc', 'r1', sealed)).toEqual(entry);
    expect(await openRecord(await unlockWithRecoveryKey(upgraded!, recoveryKey), 'acc', 'r1', sealed)).toEqual(entry);
    // Already strong: nothing to store.
    expect((await unlockAndUpgrade(upgraded!, 'old pbkdf2 words')).upgraded).toBeNull();
    // Argon2id below today's parameters is upgraded too.
    expect(needsUpgrade((await createKeyring('x', FAST)).keyring)).toBe(true);
  });

  it('rotates: a new data key and recovery key, the next generation, the old keys sealed under the new one; the old secrets open nothing new (decision 0061)', async () => {
    const { keyring, recoveryKey, dataKey } = await createKeyring('first words here', FAST);
    const before = await sealRecord(dataKey, 'acc', 'r1', entry);
    const once = await rotateKeyring(keyring, 'first words here', 'second words here', FAST);
    expect(once.keyring.generation).toBe(2);
    expect(once.recoveryKey).not.toBe(recoveryKey);
    expect(once.keyring.recovery.wrapped.data).not.toBe(keyring.recovery.wrapped.data);
    expect(once.keys.dataKey.extractable).toBe(false);
    // The new key is not the old one: a record sealed under it does not open with the old key.
    const after = await sealRecord(once.keys.dataKey, 'acc', 'r2', entry);
    await expect(openRecord(dataKey, 'acc', 'r2', after)).rejects.toBeInstanceOf(JournalLockedError);
    // The old passphrase and the old recovery key no longer open the keyring; the new ones do.
    await expect(unlockWithPassphrase(once.keyring, 'first words here')).rejects.toBeInstanceOf(JournalLockedError);
    await expect(unlockWithRecoveryKey(once.keyring, recoveryKey)).rejects.toBeInstanceOf(JournalLockedError);
    const opened = await unlockWithRecoveryKey(once.keyring, once.recoveryKey);
    expect(await openRecord(opened, 'acc', 'r2', after)).toEqual(entry);
    // The replaced key travels sealed under the new one: records not yet sealed again still open.
    const previous = await openPreviousKeys(once.keyring, await unlockWithPassphrase(once.keyring, 'second words here'));
    expect(previous).toHaveLength(1);
    expect(await openRecord(previous[0], 'acc', 'r1', before)).toEqual(entry);
    // A second rotation keeps both earlier keys, newest first; a wrong passphrase rotates nothing.
    await expect(rotateKeyring(once.keyring, 'first words here', 'x', FAST)).rejects.toBeInstanceOf(JournalLockedError);
    const twice = await rotateKeyring(once.keyring, 'second words here', 'second words here', FAST);
    expect(twice.keyring.generation).toBe(3);
    expect(twice.keyring.previous?.map((p) => p.generation)).toEqual([2, 1]);
    expect(await openRecord(twice.keys.previousKeys[1], 'acc', 'r1', before)).toEqual(entry);
    expect(await openRecord(twice.keys.previousKeys[0], 'acc', 'r2', after)).toEqual(entry);
    // The sealed earlier keys are bound to their generation.
    const swapped = { ...twice.keyring, previous: twice.keyring.previous!.map((p, i) => ({ ...p, generation: i === 0 ? 1 : 2 })) };
    await expect(openPreviousKeys(swapped, twice.keys.dataKey)).rejects.toBeInstanceOf(JournalLockedError);
  });

  it('writes and reads every recovery key exactly', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 32, maxLength: 32 }), (bytes) => {
        const text = formatRecoveryKey(bytes);
        expect(text).toMatch(/^([0-9A-HJKMNP-TV-Z]{4}-){12}[0-9A-HJKMNP-TV-Z]{4}$/);
        expect(parseRecoveryKey(text)).toEqual(bytes);
      }),
    );
    expect(parseRecoveryKey('not a key')).toBeNull();
  });
});
