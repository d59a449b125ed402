import { describe, expect, it } from 'vitest';
import { customProgress, emptyProgress, initialCustom, leadingMinutes, readRoutine, ROUTINE_COPY, ROUTINE_TEMPLATES, routineSavedMessage, sanitiseCustom, totalMinutes } from '#shared/routines.ts';
import { msUntilNextMidnight } from '#shared/days.ts';

describe('routine templates', () => {
  it('has the spec table: ids and activity counts, founders first', () => {
    const shape = (kind: 'morning' | 'evening') => ROUTINE_TEMPLATES[kind].map((t) => [t.id, t.activities.length]);
    expect(shape('morning')).toEqual([['founders', 5], ['mindful', 4], ['energetic', 5], ['productive', 5]]);
    expect(shape('evening')).toEqual([['founders', 5], ['restful', 4], ['reflective', 4], ['digital-detox', 5]]);
    expect(ROUTINE_TEMPLATES.morning[0].title).toBe("Founder's Favourite");
  });

  it('totals the leading number of each duration', () => {
    expect(leadingMinutes('10 mins')).toBe(10);
    expect(leadingMinutes(' 2.5 min')).toBe(2.5);
    expect(leadingMinutes('a while')).toBe(0);
    expect(totalMinutes([{ duration: '10 mins' }, { duration: '5 mins' }, { duration: '' }])).toBe(15);
    expect(totalMinutes(ROUTINE_TEMPLATES.morning[0].activities)).toBe(40);
    for (const kind of ['morning', 'evening'] as const) for (const t of ROUTINE_TEMPLATES[kind]) expect(t.activities.every((x) => /^\d+ mins$/.test(x.duration))).toBe(true);
  });
});

describe('custom routine', () => {
  it('starts with the locked meditation and a blank row', () => {
    expect(initialCustom('morning')).toEqual([
      { id: 'locked', title: 'Do a morning meditation', duration: '10 mins', required: true },
      { id: 'custom-1', title: '', duration: '' },
    ]);
    expect(initialCustom('evening')[0].title).toBe('Do an evening meditation');
  });

  it('keeps the first row locked whatever was stored', () => {
    const rows = sanitiseCustom('evening', [{ title: 'Hacked title', duration: '20 mins' }, { title: 'Read', duration: '15 mins' }]);
    expect(rows[0]).toMatchObject({ title: ROUTINE_COPY.evening.lockedActivity, required: true, duration: '20 mins' });
    expect(rows[1]).toMatchObject({ title: 'Read', duration: '15 mins' });
  });
});

describe('daily reset', () => {
  const today = '2026-11-23';
  it('keeps today’s progress and starts fresh on any other day or damaged value', () => {
    const saved = emptyProgress('morning', today);
    saved.progress.founders = [true, false, true, false, false];
    saved.custom = [...initialCustom('morning'), { id: 'x', title: 'Stretch', duration: '5 mins' }];
    expect(readRoutine('morning', JSON.stringify(saved), today)).toEqual(saved);
    expect(readRoutine('morning', JSON.stringify(saved), '2026-11-24')).toEqual(emptyProgress('morning', '2026-11-24'));
    expect(readRoutine('morning', '{broken', today)).toEqual(emptyProgress('morning', today));
    expect(readRoutine('morning', JSON.stringify({ date: today, progress: { founders: 'yes' } }), today).progress.founders).toEqual([false, false, false, false, false]);
  });

  it('finds the next local midnight, also across a clock change', () => {
    const original = process.env.TZ;
    process.env.TZ = 'Europe/London';
    try {
      expect(msUntilNextMidnight(new Date(2026, 10, 23, 23, 30))).toBe(30 * 60 * 1000);
      // 25 October 2026: clocks go back at 02:00, so that day lasts 25 hours.
      expect(msUntilNextMidnight(new Date(2026, 9, 25, 0, 0))).toBe(25 * 3600 * 1000);
      // 29 March 2026: clocks go forward, a 23-hour day.
      expect(msUntilNextMidnight(new Date(2026, 2, 29, 0, 0))).toBe(23 * 3600 * 1000);
    } finally {
      process.env.TZ = original;
    }
  });
});

describe('routineSavedMessage (issue 38: "complete" with 1 of 5 ticked)', () => {
  it("keeps the spec's completion words for a routine done in full, and says how far it got otherwise", () => {
    expect(routineSavedMessage('morning', 5, 5)).toEqual({ title: 'Routine complete! Well done.', description: 'Your morning routine progress has been saved.' });
    expect(routineSavedMessage('evening', 4, 4).title).toBe('Evening routine complete! Well done.');
    expect(routineSavedMessage('morning', 1, 5).title).toBe('Progress saved, 1 of 5');
    expect(routineSavedMessage('evening', 2, 5)).toEqual({ title: 'Progress saved, 2 of 5', description: 'Your evening routine progress has been saved.' });
    expect(routineSavedMessage('morning', 0, 0).title).toBe('Progress saved, 0 of 0');
  });

  it('counts a custom routine without its blank, unticked rows', () => {
    expect(customProgress([{ id: 'a', title: 'Meditate', duration: '', completed: true }, { id: 'b', title: ' ', duration: '' }, { id: 'c', title: 'Read', duration: '' }])).toEqual({ done: 1, total: 2 });
  });
});
