import { describe, expect, it } from 'vitest';
import { programmeDayLine, programmeProgress, type ProgrammeEnrolment } from '#shared/programmes.ts';

const DAYS = ['m1', 'm2', 'm3'];
const at = (iso: string) => new Date(iso);
const enrolled = (over: Partial<ProgrammeEnrolment> = {}): ProgrammeEnrolment => ({ startedAt: at('2026-11-20T09:00:00Z'), timeZone: 'Europe/London', openedEarly: 0, ...over });
const progress = (sessions: [string, string][], now: string, over: Partial<ProgrammeEnrolment> = {}) =>
  programmeProgress({ days: DAYS, enrolment: enrolled(over), sessions: sessions.map(([meditationId, time]) => ({ meditationId, completedAt: at(time) })), now: at(now) });

describe('programme progress (decision 0051)', () => {
  it('opens day 1 at enrolment and nothing else', () => {
    const p = progress([], '2026-11-20T09:05:00Z');
    expect(p).toMatchObject({ doneCount: 0, current: 1, opensOn: null, finished: false });
    expect(p.days.map((d) => d.state)).toEqual(['open', 'later', 'later']);
  });

  it('a complete session of day 1’s meditation does day 1; day 2 waits for the next calendar day', () => {
    const p = progress([['m1', '2026-11-20T09:20:00Z']], '2026-11-20T22:00:00Z');
    expect(p).toMatchObject({ doneCount: 1, current: 2, opensOn: '2026-11-21' });
    expect(p.days.map((d) => d.state)).toEqual(['done', 'waiting', 'later']);
    expect(progress([['m1', '2026-11-20T09:20:00Z']], '2026-11-21T00:00:01Z').days[1].state).toBe('open');
  });

  it('counts the calendar day in the enrolment’s time zone, not UTC', () => {
    // 23:30 in New York on the 20th is 04:30 UTC on the 21st: still the 20th for the person.
    const ny = { timeZone: 'America/New_York', startedAt: at('2026-11-20T20:00:00Z') };
    const done = [['m1', '2026-11-21T01:00:00Z']] as [string, string][]; // 20:00 on the 20th in New York
    expect(progress(done, '2026-11-21T04:30:00Z', ny).days[1].state).toBe('waiting');
    expect(progress(done, '2026-11-21T05:00:01Z', ny).days[1].state).toBe('open');
    // A session of day 2 played the same evening does not count; one after midnight does.
    expect(progress([...done, ['m2', '2026-11-21T04:40:00Z']], '2026-11-21T06:00:00Z', ny).doneCount).toBe(1);
    expect(progress([...done, ['m2', '2026-11-21T05:10:00Z']], '2026-11-21T06:00:00Z', ny).doneCount).toBe(2);
  });

  it('"Don’t wait" opens the next day at once', () => {
    const p = progress([['m1', '2026-11-20T09:20:00Z'], ['m2', '2026-11-20T09:40:00Z']], '2026-11-20T09:45:00Z', { openedEarly: 2 });
    expect(p).toMatchObject({ doneCount: 2, current: 3, opensOn: '2026-11-21' });
    expect(p.days.map((d) => d.state)).toEqual(['done', 'done', 'waiting']);
  });

  it('ignores sessions before the enrolment, of other meditations, and of later days played early', () => {
    const p = progress(
      [
        ['m1', '2026-11-19T10:00:00Z'],
        ['m3', '2026-11-20T09:10:00Z'],
        ['m2', '2026-11-20T09:15:00Z'],
        ['other', '2026-11-20T09:30:00Z'],
      ],
      '2026-11-22T10:00:00Z',
    );
    expect(p.doneCount).toBe(0);
  });

  it('each session counts once, so a meditation repeated on two days needs two sessions on two days', () => {
    const twice = programmeProgress({
      days: ['m1', 'm1'],
      enrolment: enrolled(),
      sessions: [{ meditationId: 'm1', completedAt: at('2026-11-20T10:00:00Z') }],
      now: at('2026-11-23T10:00:00Z'),
    });
    expect(twice).toMatchObject({ doneCount: 1, current: 2 });
  });

  it('finishes when every day is done', () => {
    const p = progress(
      [
        ['m1', '2026-11-20T10:00:00Z'],
        ['m2', '2026-11-21T10:00:00Z'],
        ['m3', '2026-11-22T10:00:00Z'],
        ['m3', '2026-11-23T10:00:00Z'],
      ],
      '2026-11-24T10:00:00Z',
    );
    expect(p).toMatchObject({ doneCount: 3, current: null, opensOn: null, finished: true });
    expect(p.days.map((d) => d.doneAt?.toISOString())).toEqual(['2026-11-20T10:00:00.000Z', '2026-11-21T10:00:00.000Z', '2026-11-22T10:00:00.000Z']);
  });

  it('words the day line exactly', () => {
    expect(programmeDayLine(2, 7)).toBe('Day 2 of 7');
  });
});
