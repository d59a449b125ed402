import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createEntry, blankCbt } from '#shared/journal.ts';
import { parseSharedPayload, summariseJournal, type SharedPayload } from '#shared/journal-share.ts';
import { sealRecord, createKeyring, fromBase64, toBase64 } from '#web/features/journal/journal-crypto.ts';
import { keyFromHash, openShare, sealShare, shareLink, shareRequest, ShareKeyError } from '#web/features/journal/journal-share-crypto.ts';

const WORDS = 'I was sure the whole team thought I had failed';
const entry = createEntry('cbt', { ...blankCbt(), thoughtPatterns: WORDS, cognitiveDistortions: ['jumping-conclusions'], reframe: 'One person frowned; nobody said so.' }, new Date('2026-11-27T10:00:00Z'));
const payload: SharedPayload = { version: 1, entry, summary: summariseJournal([entry], '2026-11-27') };

describe('a shared entry’s crypto', () => {
  it('opens with the key it was sealed under, to the same payload', async () => {
    const { key, sealed } = await sealShare(payload);
    expect(key).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const opened = await openShare(key, sealed);
    expect(opened).toEqual(payload);
    expect(parseSharedPayload(opened)).toEqual(payload);
  });

  it('round-trips any JSON value', async () => {
    await fc.assert(
      fc.asyncProperty(fc.jsonValue(), async (value) => {
        const { key, sealed } = await sealShare(value);
        expect(JSON.stringify(await openShare(key, sealed))).toBe(JSON.stringify(JSON.parse(JSON.stringify(value))));
      }),
      { numRuns: 40 },
    );
  });

  it('makes a new key and IV for every link, so two links of one entry share nothing', async () => {
    const a = await sealShare(payload);
    const b = await sealShare(payload);
    expect(a.key).not.toBe(b.key);
    expect(a.sealed.iv).not.toBe(b.sealed.iv);
    expect(a.sealed.data).not.toBe(b.sealed.data);
  });

  it('refuses another link’s key, a changed key, a missing key and a changed byte', async () => {
    const { key, sealed } = await sealShare(payload);
    const other = await sealShare(payload);
    await expect(openShare(other.key, sealed)).rejects.toEqual(new ShareKeyError('wrong'));
    const flipped = (key[0] === 'A' ? 'B' : 'A') + key.slice(1);
    await expect(openShare(flipped, sealed)).rejects.toMatchObject({ reason: 'wrong' });
    await expect(openShare(key.slice(0, 20), sealed)).rejects.toMatchObject({ reason: 'wrong' });
    await expect(openShare('', sealed)).rejects.toMatchObject({ reason: 'missing' });
    const bytes = fromBase64(sealed.data);
    bytes[5] ^= 1;
    await expect(openShare(key, { iv: sealed.iv, data: toBase64(bytes) })).rejects.toMatchObject({ reason: 'wrong' });
  });

  it('is not a journal record: a record sealed with the journal’s key does not open as a share', async () => {
    const { dataKey } = await createKeyring('a long test passphrase', { memoryKiB: 1024, iterations: 1, parallelism: 1 });
    const record = await sealRecord(dataKey, 'account', 'record', payload);
    await expect(openShare('A'.repeat(43), record)).rejects.toMatchObject({ reason: 'wrong' });
  });

  it('sends only the sealed payload and the expiry: never the key, never a word of the entry', async () => {
    const { body, key } = await shareRequest(payload, 7);
    const sent = JSON.stringify(body);
    expect(Object.keys(body).sort()).toEqual(['data', 'expiresInDays', 'iv']);
    expect(body.expiresInDays).toBe(7);
    expect(sent).not.toContain(key);
    expect(sent).not.toContain(toBase64(fromBase64(key.replace(/-/g, '+').replace(/_/g, '/') + '=')).replace(/=+$/, ''));
    for (const word of [WORDS, 'whole team', 'nobody said so', 'jumping-conclusions']) expect(sent).not.toContain(word);
    expect(await openShare(key, body)).toEqual(payload);
  });

  it('puts the key only after # in the link', () => {
    const link = shareLink('https://harbour.example/', '6f1c3c4e-5b0b-4b7e-9d1a-2f4c2a0b9e11', 'k'.repeat(43));
    expect(link).toBe(`https://harbour.example/shared/6f1c3c4e-5b0b-4b7e-9d1a-2f4c2a0b9e11#${'k'.repeat(43)}`);
    const url = new URL(link);
    expect(url.pathname + url.search).not.toContain('k'.repeat(43));
    expect(keyFromHash(url.hash)).toBe('k'.repeat(43));
    expect(keyFromHash('')).toBe('');
  });
});

describe('the 30-day summary', () => {
  it('counts the last 30 days only, with averages and no words', () => {
    const old = { ...createEntry('mindfulness', { timeOfDay: 'morning', gratitude: 'tea', intention: '', mood: 2, mindfulMoments: '', challenges: '', reflection: '' }, new Date('2026-10-01T09:00:00Z')), date: '2026-10-01' };
    const recent = { ...createEntry('mindfulness', { timeOfDay: 'morning', gratitude: 'tea', intention: '', mood: 7, mindfulMoments: '', challenges: '', reflection: '' }, new Date('2026-11-20T09:00:00Z')), date: '2026-11-20' };
    const summary = summariseJournal([old, recent, entry], '2026-11-27');
    expect(summary).toEqual({ from: '2026-10-29', to: '2026-11-27', entries: 2, daysWritten: 2, byType: { mindfulness: 1, cbt: 1, dbt: 0 }, averageMood: 7, averageIntensity: null });
    expect(JSON.stringify(summary)).not.toContain('tea');
  });

  it('a payload from someone else’s device is checked before it is shown', () => {
    expect(parseSharedPayload({ version: 2, entry, summary: null })).toBeNull();
    expect(parseSharedPayload({ version: 1, entry: { nope: true }, summary: null })).toBeNull();
    expect(parseSharedPayload({ version: 1, entry, summary: { entries: 'many' } })).toEqual({ version: 1, entry, summary: null });
  });
});
