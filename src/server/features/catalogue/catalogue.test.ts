import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ListMeditationsResponse } from '#shared/contracts/catalogue.ts';
import { buildMeditation } from '#tests/factories.ts';
import { createTestApp, type TestApp } from '#tests/setup/test-app.ts';
import { testDatabaseKinds } from '#tests/setup/test-db.ts';

describe.each(testDatabaseKinds())('catalogue API on %s', (kind) => {
  let t: TestApp;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    t = await createTestApp({ kind });
    const db = t.database.db;
    ids.morning = (await buildMeditation(db, { title: 'Dawn', category: 'morning', categories: ['morning'], transcript: 'Breathe in.' })).id;
    ids.endo = (await buildMeditation(db, { title: 'Endo rest', category: 'endometriosis', categories: ['endometriosis'] })).id;
    ids.fibro = (await buildMeditation(db, { title: 'Fibro ease', category: 'fibromyalgia', categories: ['fibromyalgia'] })).id;
    ids.chronic = (await buildMeditation(db, { title: 'Long days', category: 'chronic-health-care', categories: ['chronic-health-care'] })).id;
    ids.anxiety = (await buildMeditation(db, { title: 'Steady', category: 'anxiety', categories: ['anxiety'] })).id;
    ids.regulation = (await buildMeditation(db, { title: 'Waves', category: 'sleeping', categories: ['sleeping', 'emotional-regulation'] })).id;
    ids.blankDescription = (await buildMeditation(db, { title: 'Hidden', description: '', category: 'morning' })).id;
    ids.blankTitle = (await buildMeditation(db, { title: '', category: 'morning' })).id;
    ids.noContent = (await buildMeditation(db, { title: 'Preview only', category: 'happiness', withContent: false })).id;
    for (let i = 0; i < 8; i += 1) await buildMeditation(db, { title: `Later ${i}`, category: 'mindfulness', createdAt: new Date(Date.UTC(2026, 0, 1 + i)) });
  });
  afterAll(() => t.close());

  const list = async (category?: string) => {
    const res = await t.app.inject({ method: 'GET', url: category === undefined ? '/api/meditations' : `/api/meditations?category=${encodeURIComponent(category)}` });
    return { status: res.statusCode, body: res.json<ListMeditationsResponse>(), raw: res.body, headers: res.headers };
  };

  it('lists every displayable meditation, newest first, for anyone', async () => {
    const { status, body } = await list();
    expect(status).toBe(200);
    expect(body.category.title).toBe('All Meditations');
    const titles = body.meditations.map((m) => m.title);
    expect(titles).toHaveLength(15);
    expect(titles.slice(0, 3)).toEqual(['Later 7', 'Later 6', 'Later 5']);
    expect(titles).not.toContain('Hidden');
    expect(titles).not.toContain('');
    expect(titles).toContain('Preview only');
    const times = body.meditations.map((m) => Date.parse(m.createdAt));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
  });

  it('never reveals where the audio is stored', async () => {
    const { raw, body } = await list('all');
    for (const forbidden of ['storage', 'audio_url', 'audioUrl', 'audio_file', '.mp3', '/media/']) expect(raw).not.toContain(forbidden);
    const card = body.meditations.find((m) => m.id === ids.morning)!;
    expect(Object.keys(card).sort()).toEqual(['categories', 'category', 'createdAt', 'description', 'duration', 'durationSeconds', 'free', 'hasTranscript', 'id', 'tags', 'title']);
    expect(card.hasTranscript).toBe(true);
  });

  it('chronic-health-care includes endometriosis and fibromyalgia', async () => {
    const { body } = await list('chronic-health-care');
    expect(body.category.title).toBe('Meditations for Chronic Conditions');
    expect(body.meditations.map((m) => m.id).sort()).toEqual([ids.endo, ids.fibro, ids.chronic].sort());
  });

  it('emotional-wellbeing includes anxiety and emotional-regulation (by any category)', async () => {
    const { body } = await list('emotional-wellbeing');
    expect(body.meditations.map((m) => m.id).sort()).toEqual([ids.anxiety, ids.regulation].sort());
  });

  it('a sub-category lists only its own', async () => {
    const { body } = await list('endometriosis');
    expect(body.category.title).toBe('Endometriosis Support');
    expect(body.meditations.map((m) => m.id)).toEqual([ids.endo]);
  });

  it('recently-added gives the 10 newest', async () => {
    const { body } = await list('recently-added');
    expect(body.meditations).toHaveLength(10);
    expect(body.meditations[0].title).toBe('Later 7');
  });

  it('an unknown slug gives the fallback title and an empty list', async () => {
    const { status, body } = await list('deep-sea');
    expect(status).toBe(200);
    expect(body.category.title).toBe('Deep Sea Meditations');
    expect(body.meditations).toEqual([]);
  });

  it('refuses malformed slugs with a clear 400 and no data', async () => {
    for (const bad of ['../etc/passwd', "morning' or 1=1 --", 'x'.repeat(65)]) {
      const res = await t.app.inject({ method: 'GET', url: `/api/meditations?category=${encodeURIComponent(bad)}` });
      expect(res.statusCode, bad).toBe(400);
      expect(res.json().error.code).toBe('validation/invalid-input');
      expect(res.json()).not.toHaveProperty('meditations');
    }
  });

  it('gets one meditation by id, 404 for unknown, 400 for malformed ids', async () => {
    const ok = await t.app.inject({ method: 'GET', url: `/api/meditations/${ids.fibro}` });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().meditation.title).toBe('Fibro ease');
    const missing = await t.app.inject({ method: 'GET', url: '/api/meditations/00000000-0000-4000-8000-000000000000' });
    expect(missing.statusCode).toBe(404);
    expect(missing.json().error.message).toBe('Meditation not found');
    const hidden = await t.app.inject({ method: 'GET', url: `/api/meditations/${ids.blankDescription}` });
    expect(hidden.statusCode).toBe(404);
    const malformed = await t.app.inject({ method: 'GET', url: '/api/meditations/not-a-uuid' });
    expect(malformed.statusCode).toBe(400);
  });

  describe('search in what is spoken (issue 17, item 4)', () => {
    const search = (q: string) => t.app.inject({ method: 'GET', url: `/api/search/meditations?q=${encodeURIComponent(q)}` });

    it('finds meditations whose transcript holds every word, in any case, and only displayable ones', async () => {
      const db = t.database.db;
      const a = await buildMeditation(db, { title: 'Harbour light', category: 'sleeping', transcript: 'Feel the Lighthouse beam sweep over calm water.' });
      const b = await buildMeditation(db, { title: 'Other', category: 'sleeping', transcript: 'A lighthouse, far away; 100% quiet_now.' });
      await buildMeditation(db, { title: '', category: 'sleeping', transcript: 'A hidden lighthouse.' });
      expect((await search('lighthouse')).json().ids.sort()).toEqual([a.id, b.id].sort());
      expect((await search('CALM lighthouse')).json().ids).toEqual([a.id]);
      // LIKE's own characters are plain text here.
      expect((await search('100%')).json().ids).toEqual([b.id]);
      expect((await search('quiet_now')).json().ids).toEqual([b.id]);
      expect((await search('%')).statusCode).toBe(400);
      expect((await search('_%')).json().ids).toEqual([]);
      expect((await search('nothing-says-this')).json().ids).toEqual([]);
    });

    it('refuses a search that is too short, too long or holds control characters, with a message', async () => {
      for (const q of ['a', 'x'.repeat(101), 'calm\u0000']) {
        const res = await search(q);
        expect(res.statusCode, q).toBe(400);
        expect(res.json().error.message).toBeTruthy();
      }
      expect((await t.app.inject({ method: 'GET', url: '/api/search/meditations' })).statusCode).toBe(400);
    });
  });
});
