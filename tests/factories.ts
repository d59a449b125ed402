/** Rows for tests to own. Each factory inserts and returns what it made. */
import { randomUUID } from 'node:crypto';
import type { Database } from '#server/db/client.ts';
import { meditationContent, meditationPreviews } from '#server/db/schema/catalogue.ts';

let counter = 0;

export async function buildMeditation(
  db: Database,
  overrides: Partial<typeof meditationPreviews.$inferInsert> & { transcript?: string | null; withContent?: boolean } = {},
) {
  counter += 1;
  const { transcript = null, withContent = true, ...preview } = overrides;
  const categories = preview.categories ?? [preview.category ?? 'mindfulness'];
  const [row] = await db
    .insert(meditationPreviews)
    .values({
      id: randomUUID(),
      title: `Test meditation ${counter}`,
      description: `A calm test description ${counter}.`,
      duration: '5 min',
      durationSeconds: 300,
      category: categories[0],
      categories,
      tags: [],
      createdAt: new Date(Date.UTC(2025, 0, 1) + counter * 60_000),
      ...preview,
    })
    .returning();
  if (withContent) {
    await db.insert(meditationContent).values({
      meditationId: row.id,
      storageKey: `${randomUUID()}.mp3`,
      audioFileName: 'test.mp3',
      audioFileType: 'audio/mpeg',
      audioFileSize: 1234,
      transcript,
    });
  }
  return row;
}
