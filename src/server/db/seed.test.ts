import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { parseFile } from 'music-metadata';
import { describe, expect, it } from 'vitest';
import { ASSIGNABLE_CATEGORIES } from '#shared/catalogue.ts';
import { meditationContent, meditationPreviews } from '#server/db/schema/catalogue.ts';
import { programmeDays, programmes } from '#server/db/schema/programmes.ts';
import { DEFAULT_SEED_DIR, readSeedCatalogue, readSeedProgrammes, seedDemoCatalogue, seedDemoProgrammes } from '#server/db/seed.ts';
import { createTestApp } from '#tests/setup/test-app.ts';
import { testDatabaseKinds } from '#tests/setup/test-db.ts';
import { openForSuite } from '#tests/setup/suite-resource.ts';

describe('demo catalogue content', () => {
  it('has at least 24 meditations and two per category, each with a script and an audio file', async () => {
    const items = await readSeedCatalogue();
    expect(items.length).toBeGreaterThanOrEqual(24);
    for (const category of ASSIGNABLE_CATEGORIES) {
      const primary = items.filter((item) => item.categories[0] === category.id);
      expect(primary.length, category.id).toBeGreaterThanOrEqual(2);
    }
    expect(new Set(items.map((i) => i.id)).size).toBe(items.length);
    expect(new Set(items.map((i) => i.title)).size).toBe(items.length);
    const files = new Set(readdirSync(join(DEFAULT_SEED_DIR, 'audio')));
    for (const item of items) expect(files.has(item.audioFile), item.audioFile).toBe(true);
    expect(items.some((i) => i.audioFile.endsWith('.m4a'))).toBe(true);
  });

  it('lasts as long as its title says, and offers a few 5–10-minute meditations (issue 17, item 4)', async () => {
    const items = await readSeedCatalogue();
    const WORD_MINUTES: Record<string, number> = { one: 1, two: 2, three: 3, five: 5, ten: 10, fifteen: 15, twenty: 20 };
    for (const item of items) {
      const seconds = (await parseFile(join(DEFAULT_SEED_DIR, 'audio', item.audioFile), { duration: true })).format.duration ?? 0;
      const named = /\b(\w+)[- ]minute\b/i.exec(item.title)?.[1]?.toLowerCase();
      const promised = named ? (WORD_MINUTES[named] ?? Number(named)) * 60 : undefined;
      if (promised !== undefined) expect(item.lengthSeconds, item.title).toBe(promised);
      if (item.lengthSeconds !== undefined) expect(Math.abs(seconds - item.lengthSeconds), item.audioFile).toBeLessThan(2);
    }
    const long = items.filter((item) => (item.lengthSeconds ?? 0) >= 300 && (item.lengthSeconds ?? 0) <= 600);
    expect(long.length).toBeGreaterThanOrEqual(3);
  });
});

describe('demo programmes (issue 37, item 2)', () => {
  it('offers Seven Days of Calm and Sleep Reset, each day a demo meditation with a reflection, day 1 free to try', async () => {
    const [items, catalogue] = await Promise.all([readSeedProgrammes(), readSeedCatalogue()]);
    expect(items.map((p) => p.title)).toEqual(expect.arrayContaining(['Seven Days of Calm', 'Sleep Reset']));
    const bySlug = new Map(catalogue.map((item) => [item.slug, item]));
    for (const programme of items) {
      for (const day of programme.days) expect(bySlug.has(day.meditation), `${programme.slug}: ${day.meditation}`).toBe(true);
      expect(bySlug.get(programme.days[0].meditation)?.free, programme.slug).toBe(true);
      expect(programme.days.every((day) => day.reflection.endsWith('?'))).toBe(true);
    }
    expect(items.find((p) => p.slug === 'seven-days-of-calm')?.days).toHaveLength(7);
  });
});

describe.each(testDatabaseKinds())('seeding on %s', (kind) => {
  const t = openForSuite(() => createTestApp({ kind }));

  it('inserts every item once, reads durations from the files, and is idempotent', async () => {
    const items = await readSeedCatalogue();
    const first = await seedDemoCatalogue({ db: t.database.db, storage: t.storage });
    expect(first).toEqual({ inserted: items.length, total: items.length });
    const second = await seedDemoCatalogue({ db: t.database.db, storage: t.storage });
    expect(second.inserted).toBe(0);

    const previews = await t.database.db.select().from(meditationPreviews);
    const contents = await t.database.db.select().from(meditationContent);
    expect(previews).toHaveLength(items.length);
    expect(contents).toHaveLength(items.length);

    const sample = items[0];
    const row = previews.find((p) => p.id === sample.id)!;
    const metadata = await parseFile(join(DEFAULT_SEED_DIR, 'audio', sample.audioFile), { duration: true });
    expect(row.durationSeconds).toBe(Math.round(metadata.format.duration!));
    expect(row.duration).toMatch(/^\d+ min$/);

    // Every content row points at a stored file of the recorded size, under a generated name.
    for (const content of contents) {
      const stored = await t.storage.stat(content.storageKey);
      expect(stored?.size, content.storageKey).toBe(content.audioFileSize);
      expect(content.storageKey).toMatch(/^[0-9a-f-]{36}\.(mp3|m4a)$/);
      expect(content.transcript?.length).toBeGreaterThan(20);
    }
    // The second run left no extra files behind.
    expect(readdirSync(join(t.dataDir, 'media', 'meditations'))).toHaveLength(items.length);

    // The demo programmes follow the catalogue, published, once.
    const demo = await readSeedProgrammes();
    expect(await seedDemoProgrammes({ db: t.database.db })).toEqual({ inserted: demo.length, total: demo.length });
    expect((await seedDemoProgrammes({ db: t.database.db })).inserted).toBe(0);
    const seeded = await t.database.db.select().from(programmes);
    expect(seeded.map((p) => [p.slug, p.published])).toEqual(expect.arrayContaining(demo.map((p) => [p.slug, true])));
    expect(await t.database.db.select().from(programmeDays)).toHaveLength(demo.reduce((n, p) => n + p.days.length, 0));
  });
});
