/**
 * Seeds the demo catalogue (seed/catalogue.json + seed/audio) into the database and media storage.
 * Idempotent by id: a second run inserts nothing. Durations are read from the audio files.
 */
import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { extname, join, resolve } from 'node:path';
import { count, eq, inArray } from 'drizzle-orm';
import { parseFile } from 'music-metadata';
import { z } from 'zod';
import { ASSIGNABLE_CATEGORIES, formatDurationMinutes } from '#shared/catalogue.ts';
import { PROGRAMME_LIMITS, PROGRAMME_SLUG } from '#shared/programmes.ts';
import type { Database } from '#server/db/client.ts';
import { meditationContent, meditationPreviews } from '#server/db/schema/catalogue.ts';
import { programmeDays, programmes } from '#server/db/schema/programmes.ts';
import type { MediaStorage } from '#server/features/media/media-storage.ts';

export const DEFAULT_SEED_DIR = resolve('seed');

const seedItemSchema = z.object({
  id: z.uuid(),
  slug: z.string().regex(/^[a-z0-9-]+$/),
  title: z.string().min(1).max(200),
  description: z.string().min(1).max(2000),
  categories: z.array(z.string().min(1)).min(1),
  tags: z.array(z.string()).default([]),
  /** One of the free samples anyone may play (decision 0025). */
  free: z.boolean().default(false),
  createdAt: z.iso.datetime(),
  script: z.string().min(1),
  audioFile: z.string().regex(/^[a-z0-9-]+\.(mp3|m4a)$/),
  // The length scripts/generate-demo-audio.sh makes the audio (a title that names a length keeps
  // it); the seeder reads the real length from the file.
  lengthSeconds: z.number().int().min(30).max(3600).optional(),
});
export type SeedItem = z.infer<typeof seedItemSchema>;

const MIME_BY_EXT: Record<string, string> = { '.mp3': 'audio/mpeg', '.m4a': 'audio/mp4' };

export async function readSeedCatalogue(seedDir = DEFAULT_SEED_DIR): Promise<SeedItem[]> {
  const raw: unknown = JSON.parse(await readFile(join(seedDir, 'catalogue.json'), 'utf8'));
  return z.array(seedItemSchema).parse(raw);
}

export async function isCatalogueEmpty(db: Database): Promise<boolean> {
  // count() always answers with exactly one row.
  const [row] = await db.select({ n: count() }).from(meditationPreviews);
  return row.n === 0;
}

/** Inserts every seed item not yet present. Returns how many were inserted. */
export async function seedDemoCatalogue({
  db,
  storage,
  seedDir = DEFAULT_SEED_DIR,
}: {
  db: Database;
  storage: MediaStorage;
  seedDir?: string;
}): Promise<{ inserted: number; total: number }> {
  const items = await readSeedCatalogue(seedDir);
  let inserted = 0;
  for (const item of items) {
    const existing = await db.select({ id: meditationPreviews.id }).from(meditationPreviews).where(eq(meditationPreviews.id, item.id));
    if (existing.length > 0) continue;

    const sourcePath = join(seedDir, 'audio', item.audioFile);
    const metadata = await parseFile(sourcePath, { duration: true });
    const seconds = Math.round(metadata.format.duration ?? 0);
    const ext = extname(item.audioFile);
    const storageKey = `${randomUUID()}${ext}`;
    const stored = await storage.putFile(storageKey, sourcePath);
    try {
      await db.transaction(async (tx) => {
        const result = await tx
          .insert(meditationPreviews)
          .values({
            id: item.id,
            title: item.title,
            description: item.description,
            duration: formatDurationMinutes(seconds),
            durationSeconds: seconds,
            category: item.categories[0],
            categories: item.categories,
            tags: item.tags,
            free: item.free,
            createdAt: new Date(item.createdAt),
            updatedAt: new Date(item.createdAt),
          })
          .onConflictDoNothing()
          .returning({ id: meditationPreviews.id });
        if (result.length === 0) throw new AlreadySeeded();
        await tx.insert(meditationContent).values({
          meditationId: item.id,
          storageKey,
          audioFileName: item.audioFile,
          audioFileType: MIME_BY_EXT[ext] ?? 'application/octet-stream',
          audioFileSize: stored.size,
          transcript: item.script,
        });
      });
      inserted += 1;
    } catch (error) {
      // Nothing half-made: the copied file goes when its rows do not exist.
      await storage.remove(storageKey);
      if (!(error instanceof AlreadySeeded)) throw error;
    }
  }
  return { inserted, total: items.length };
}

/** Another process seeded the same id between our check and insert. */
class AlreadySeeded extends Error {}

const seedProgrammeSchema = z.object({
  id: z.uuid(),
  slug: z.string().regex(PROGRAMME_SLUG),
  title: z.string().min(1).max(PROGRAMME_LIMITS.titleMax),
  description: z.string().min(1).max(PROGRAMME_LIMITS.descriptionMax),
  cover: z.enum(ASSIGNABLE_CATEGORIES.map((c) => c.id)),
  /** Each day names a catalogue item by its slug; day 1's must be a free sample (decision 0051). */
  days: z
    .array(z.object({ meditation: z.string().regex(/^[a-z0-9-]+$/), reflection: z.string().min(1).max(PROGRAMME_LIMITS.reflectionMax) }))
    .min(PROGRAMME_LIMITS.daysMin)
    .max(PROGRAMME_LIMITS.daysMax),
});
export type SeedProgramme = z.infer<typeof seedProgrammeSchema>;

export async function readSeedProgrammes(seedDir = DEFAULT_SEED_DIR): Promise<SeedProgramme[]> {
  const raw: unknown = JSON.parse(await readFile(join(seedDir, 'programmes.json'), 'utf8'));
  return z.array(seedProgrammeSchema).parse(raw);
}

/**
 * Seeds the demo programmes (seed/programmes.json), published, in the file's order, after the demo
 * catalogue: a programme whose meditations are not all there is left out. Idempotent by id.
 */
export async function seedDemoProgrammes({ db, seedDir = DEFAULT_SEED_DIR }: { db: Database; seedDir?: string }): Promise<{ inserted: number; total: number }> {
  const [items, catalogue] = await Promise.all([readSeedProgrammes(seedDir), readSeedCatalogue(seedDir)]);
  const idBySlug = new Map(catalogue.map((item) => [item.slug, item.id]));
  let inserted = 0;
  for (const [position, item] of items.entries()) {
    const ids = item.days.map((day) => idBySlug.get(day.meditation));
    const wanted = ids.filter((id) => id !== undefined);
    if (wanted.length !== ids.length) continue;
    const present = await db.select({ id: meditationPreviews.id }).from(meditationPreviews).where(inArray(meditationPreviews.id, wanted));
    if (new Set(present.map((p) => p.id)).size !== new Set(wanted).size) continue;
    await db.transaction(async (tx) => {
      const made = await tx
        .insert(programmes)
        .values({ id: item.id, slug: item.slug, title: item.title, description: item.description, cover: item.cover, published: true, position })
        .onConflictDoNothing()
        .returning({ id: programmes.id });
      if (made.length === 0) return;
      await tx.insert(programmeDays).values(item.days.map((day, i) => ({ programmeId: item.id, dayNumber: i + 1, meditationId: wanted[i], reflection: day.reflection })));
      inserted += 1;
    });
  }
  return { inserted, total: items.length };
}
