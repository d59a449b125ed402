import { describe, expect, it } from 'vitest';
import { bedCopies, bellsOf, DEFAULT_TIMER_SETTINGS, parseCustomMinutes, planTimer, readTimerSettings, TIMER_MESSAGES, type TimerSettings } from '#shared/timer.ts';

const settings = (change: Partial<TimerSettings> = {}): TimerSettings => ({ ...DEFAULT_TIMER_SETTINGS, ...change });

describe('planTimer', () => {
  it('rings the starting bell after the warm-up, every interval within the sitting, and the ending bell at its end', () => {
    const plan = planTimer(settings({ minutes: 20, warmUpSeconds: 30, startBell: 'temple-bell', intervalMinutes: 5, intervalBell: 'soft-chime', endBell: 'singing-bowl', bed: 'rain' }));
    expect(plan).toEqual({
      sitStart: 30,
      sitEnd: 30 + 1200,
      plannedSeconds: 1200,
      bells: [
        { at: 30, bell: 'temple-bell', kind: 'start' },
        { at: 330, bell: 'soft-chime', kind: 'interval' },
        { at: 630, bell: 'soft-chime', kind: 'interval' },
        { at: 930, bell: 'soft-chime', kind: 'interval' },
        { at: 1230, bell: 'singing-bowl', kind: 'end' },
      ],
      bed: { id: 'rain', from: 30, to: 1230 },
    });
    expect(bellsOf(plan)).toEqual(['temple-bell', 'soft-chime', 'singing-bowl']);
  });

  it('never rings an interval bell together with the ending bell, and leaves out what is silent', () => {
    const plan = planTimer(settings({ minutes: 10, warmUpSeconds: 0, startBell: 'none', intervalMinutes: 5, intervalBell: 'soft-chime', endBell: 'none' }));
    expect(plan.bells).toEqual([{ at: 300, bell: 'soft-chime', kind: 'interval' }]);
    expect(plan.sitEnd).toBe(600);
    expect(plan.bed).toBeNull();
    expect(planTimer(settings({ minutes: 10, intervalMinutes: 5, intervalBell: 'none' })).bells.map((b) => b.kind)).toEqual(['start', 'end']);
    expect(planTimer(settings({ minutes: 1, intervalMinutes: 1 })).bells.map((b) => b.kind)).toEqual(['start', 'end']);
  });

  it('plans three hours of one-minute bells without losing a minute', () => {
    const plan = planTimer(settings({ minutes: 180, warmUpSeconds: 0, intervalMinutes: 1 }));
    const intervals = plan.bells.filter((b) => b.kind === 'interval').map((b) => b.at);
    expect(intervals).toHaveLength(179);
    expect(intervals.at(-1)).toBe(179 * 60);
  });
});

describe('bedCopies', () => {
  it('starts a copy every length minus the fade, so each fades into the next, until the sitting ends', () => {
    expect(bedCopies({ from: 10, to: 200, length: 60, fade: 3 })).toEqual([10, 67, 124, 181]);
    expect(bedCopies({ from: 0, to: 30, length: 60, fade: 3 })).toEqual([0]);
    expect(bedCopies({ from: 0, to: 30, length: 2, fade: 3 })).toEqual([]);
  });
});

describe('custom length', () => {
  it.each([
    ['1', { minutes: 1 }],
    [' 45 ', { minutes: 45 }],
    ['180', { minutes: 180 }],
    ['0', { error: TIMER_MESSAGES.badLength }],
    ['181', { error: TIMER_MESSAGES.badLength }],
    ['12.5', { error: TIMER_MESSAGES.badLength }],
    ['', { error: TIMER_MESSAGES.badLength }],
    ['ten', { error: TIMER_MESSAGES.badLength }],
    ['1e2', { error: TIMER_MESSAGES.badLength }],
  ])('%j → %j', (text, expected) => {
    expect(parseCustomMinutes(text)).toEqual(expected);
  });
});

describe('stored settings', () => {
  it('keeps what is valid and falls back field by field for what is not', () => {
    expect(readTimerSettings({ minutes: 25, warmUpSeconds: 7, startBell: 'gong', intervalMinutes: 5, intervalBell: 'soft-chime', endBell: 'none', bed: 'ocean' })).toEqual({
      minutes: 25,
      warmUpSeconds: DEFAULT_TIMER_SETTINGS.warmUpSeconds,
      startBell: DEFAULT_TIMER_SETTINGS.startBell,
      intervalMinutes: 5,
      intervalBell: 'soft-chime',
      endBell: 'none',
      bed: 'ocean',
    });
    expect(readTimerSettings(null)).toEqual(DEFAULT_TIMER_SETTINGS);
    expect(readTimerSettings('junk')).toEqual(DEFAULT_TIMER_SETTINGS);
    expect(readTimerSettings({ minutes: 9999 }).minutes).toBe(DEFAULT_TIMER_SETTINGS.minutes);
  });
});
