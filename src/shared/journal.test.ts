import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { blankCbt, blankDbt, blankMindfulness, canSave, createEntry, entriesCount, entriesToMarkdown, insights, journalStreak, readEntries, timeOfDayAt, timeOfDaySplit, weekCounts, type JournalEntry } from '#shared/journal.ts';
import { JOURNAL_LOCK_MESSAGES } from '#shared/journal-keys.ts';

const at = (iso: string) => new Date(iso); // local time (no zone suffix)

describe('time of day', () => {
  it('uses the spec cut-offs 12 and 17', () => {
    expect(timeOfDayAt(at('2026-11-23T00:00:00'))).toBe('morning');
    expect(timeOfDayAt(at('2026-11-23T11:59:59'))).toBe('morning');
    expect(timeOfDayAt(at('2026-11-23T12:00:00'))).toBe('afternoon');
    expect(timeOfDayAt(at('2026-11-23T16:59:59'))).toBe('afternoon');
    expect(timeOfDayAt(at('2026-11-23T17:00:00'))).toBe('evening');
    expect(timeOfDayAt(at('2026-11-23T23:59:59'))).toBe('evening');
  });

  it('mindfulness keeps a chosen time of day; CBT and DBT always take the clock', () => {
    const evening = at('2026-11-23T19:30:00');
    expect(createEntry('mindfulness', { ...blankMindfulness(), timeOfDay: 'morning', gratitude: 'x' }, evening).timeOfDay).toBe('morning');
    expect(createEntry('mindfulness', { ...blankMindfulness(), gratitude: 'x' }, evening).timeOfDay).toBe('evening');
    expect(createEntry('cbt', { ...blankCbt(), thoughtPatterns: 'x' }, evening).timeOfDay).toBe('evening');
    expect(createEntry('dbt', { ...blankDbt(), situation: 'x', emotions: 'y' }, at('2026-11-23T09:00:00')).timeOfDay).toBe('morning');
  });

  it('does not keep a morning intention in an evening entry, nor an evening reflection in the morning', () => {
    const entry = createEntry('mindfulness', { ...blankMindfulness(), timeOfDay: 'evening', intention: 'hidden', reflection: 'kept', gratitude: 'g' }, at('2026-11-23T20:00:00'));
    expect(entry.content).toMatchObject({ intention: '', reflection: 'kept' });
  });
});

describe('save rules', () => {
  it('mindfulness needs gratitude, intention or reflection', () => {
    expect(canSave('mindfulness', blankMindfulness())).toBe(false);
    expect(canSave('mindfulness', { ...blankMindfulness(), mindfulMoments: 'only this', challenges: 'and this' })).toBe(false);
    expect(canSave('mindfulness', { ...blankMindfulness(), gratitude: '   ' })).toBe(false);
    for (const field of ['gratitude', 'intention', 'reflection'] as const) expect(canSave('mindfulness', { ...blankMindfulness(), [field]: 'yes' })).toBe(true);
  });
  it('CBT needs thought patterns; DBT needs situation and emotions', () => {
    expect(canSave('cbt', { ...blankCbt(), reframe: 'x' })).toBe(false);
    expect(canSave('cbt', { ...blankCbt(), thoughtPatterns: 'x' })).toBe(true);
    expect(canSave('dbt', { ...blankDbt(), situation: 'x' })).toBe(false);
    expect(canSave('dbt', { ...blankDbt(), emotions: 'y' })).toBe(false);
    expect(canSave('dbt', { ...blankDbt(), situation: 'x', emotions: 'y' })).toBe(true);
  });
  it('keeps mood and intensity whole numbers from 1 to 10', () => {
    expect((createEntry('mindfulness', { ...blankMindfulness(), gratitude: 'g', mood: 14 }, new Date()).content as { mood: number }).mood).toBe(10);
    expect((createEntry('dbt', { ...blankDbt(), situation: 's', emotions: 'e', intensity: 0.4 }, new Date()).content as { intensity: number }).intensity).toBe(1);
  });
});

const entry = (date: string, id = date, timeOfDay: JournalEntry['timeOfDay'] = 'morning'): JournalEntry => ({ id: `${Date.parse(date)}${id.length}`, type: 'cbt', date, timeOfDay, content: { thoughtPatterns: 'x', cognitiveDistortions: [], reframe: '' } });

describe('streak, week and split', () => {
  it('counts consecutive days ending today, and is 0 when the latest entry is not today', () => {
    expect(journalStreak([], '2026-11-23')).toBe(0);
    expect(journalStreak([entry('2026-11-22'), entry('2026-11-21')], '2026-11-23')).toBe(0);
    expect(journalStreak([entry('2026-11-23'), entry('2026-11-23', 'b'), entry('2026-11-22'), entry('2026-11-20')], '2026-11-23')).toBe(2);
    // Across a month boundary.
    expect(journalStreak([entry('2026-12-01'), entry('2026-11-30'), entry('2026-11-29')], '2026-12-01')).toBe(3);
  });

  it('shows the week from Monday, whatever day today is', () => {
    const week = weekCounts([entry('2026-11-23'), entry('2026-11-29'), entry('2026-11-22')], '2026-11-26');
    expect(week.map((d) => d.date)).toEqual(['2026-11-23', '2026-11-24', '2026-11-25', '2026-11-26', '2026-11-27', '2026-11-28', '2026-11-29']);
    expect(week.map((d) => d.count)).toEqual([1, 0, 0, 0, 0, 0, 1]);
    expect(weekCounts([], '2026-11-29')[0].date).toBe('2026-11-23'); // Sunday belongs to the week that began on Monday
  });

  it("splits this week's entries into morning, afternoon and evening (spec: weekly time-of-day buckets, weeks from Monday)", () => {
    const entries = [
      entry('2026-11-23', 'a', 'morning'),
      entry('2026-11-25', 'b', 'evening'),
      entry('2026-11-29', 'c', 'evening'),
      // Last week's Sunday and next week's Monday are not this week's.
      entry('2026-11-22', 'd', 'afternoon'),
      entry('2026-11-30', 'e', 'morning'),
    ];
    expect(timeOfDaySplit(entries, '2026-11-26')).toEqual({ morning: 1, afternoon: 0, evening: 2 });
    expect(timeOfDaySplit(entries, '2026-11-22')).toEqual({ morning: 0, afternoon: 1, evening: 0 });
  });

  it('summarises mood, intensity and the most frequent distortions and skills', () => {
    const entries: JournalEntry[] = [
      { id: '1', type: 'mindfulness', date: '2026-11-23', timeOfDay: 'morning', content: { ...blankMindfulness(), gratitude: 'g', mood: 8 } },
      { id: '2', type: 'mindfulness', date: '2026-11-24', timeOfDay: 'morning', content: { ...blankMindfulness(), gratitude: 'g', mood: 6 } },
      { id: '3', type: 'mindfulness', date: '2026-11-17', timeOfDay: 'morning', content: { ...blankMindfulness(), gratitude: 'g', mood: 3 } },
      { id: '4', type: 'cbt', date: '2026-11-24', timeOfDay: 'evening', content: { thoughtPatterns: 't', cognitiveDistortions: ['mental-filter', 'magnification'], reframe: '' } },
      { id: '5', type: 'cbt', date: '2026-11-24', timeOfDay: 'evening', content: { thoughtPatterns: 't', cognitiveDistortions: ['magnification'], reframe: '' } },
      { id: '6', type: 'dbt', date: '2026-11-24', timeOfDay: 'evening', content: { ...blankDbt(), situation: 's', emotions: 'e', intensity: 7, dbtSkills: ['grounding'] } },
    ];
    const result = insights(entries, '2026-11-24');
    expect(result).toMatchObject({ entriesThisWeek: 5, averageMood: 7, previousAverageMood: 3, averageIntensity: 7, previousAverageIntensity: null });
    expect(result.topDistortions).toEqual([['magnification', 2], ['mental-filter', 1]]);
    expect(result.topSkills).toEqual([['grounding', 1]]);
  });
});

describe('reading stored entries', () => {
  const good = createEntry('cbt', { ...blankCbt(), thoughtPatterns: 'I always get this wrong', cognitiveDistortions: ['overgeneralisation'] }, at('2026-11-23T10:00:00'));

  it('reads a healthy list newest first', () => {
    const older = createEntry('dbt', { ...blankDbt(), situation: 's', emotions: 'e' }, at('2026-11-22T10:00:00'));
    expect(readEntries(JSON.stringify([older, good]))).toEqual({ entries: [good, older], lost: 0, damaged: false });
    expect(readEntries(null)).toEqual({ entries: [], lost: 0, damaged: false });
  });

  it('recovers what parses from a damaged list and says how much was lost', () => {
    const raw = JSON.stringify([good, { id: 'x', type: 'poem', date: '2026-11-23' }, 'nonsense', null, { ...good, id: '2', date: 'yesterday' }]);
    expect(readEntries(raw)).toMatchObject({ entries: [good], lost: 4, damaged: true });
    expect(readEntries('{not json')).toEqual({ entries: [], lost: 1, damaged: true });
    expect(readEntries('{"a":1}')).toEqual({ entries: [], lost: 1, damaged: true });
  });

  it('never throws, whatever is stored', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.json(), fc.jsonValue().map((v) => JSON.stringify([v, v]))), (raw) => {
        const result = readEntries(raw);
        expect(Array.isArray(result.entries)).toBe(true);
      }),
      { numRuns: 3000 },
    );
  });

  it('drops unknown distortion and skill ids instead of showing them', () => {
    const raw = JSON.stringify([{ ...good, content: { ...good.content, cognitiveDistortions: ['magnification', '<img onerror=x>'] } }]);
    expect((readEntries(raw).entries[0].content as { cognitiveDistortions: string[] }).cognitiveDistortions).toEqual(['magnification']);
  });
});

describe('export', () => {
  it('writes readable Markdown with labels, not ids', () => {
    const md = entriesToMarkdown([createEntry('cbt', { ...blankCbt(), thoughtPatterns: 'Nothing works', cognitiveDistortions: ['all-or-nothing'], reframe: 'Some things work' }, at('2026-11-23T10:00:00'))]);
    expect(md).toContain('## 2026-11-23 · morning · CBT');
    expect(md).toContain('**Thinking traps:** All-or-nothing thinking');
    expect(md).toContain('**Reframe:** Some things work');
  });
});

describe('entriesCount (issue 38: "Fri 1 entries")', () => {
  it('says entry for one and entries otherwise', () => {
    expect([0, 1, 2].map(entriesCount)).toEqual(['0 entries', '1 entry', '2 entries']);
  });
});

describe('the journal-full message', () => {
  it('writes the record cap as en-GB does, without Intl', () => {
    expect(JOURNAL_LOCK_MESSAGES.recordsFull).toContain('Your journal holds 40,000 entries,');
  });
});
