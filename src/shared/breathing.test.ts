import { describe, expect, it } from 'vitest';
import { BREATHING_PATTERN_IDS, BREATHING_PATTERNS, cycleSeconds, DEFAULT_BREATHING_SETTINGS, guideScale, lengthLabel, PHASE_WORDS, phaseAt, planBreathing, readBreathingSettings } from '#shared/breathing.ts';

const words = (pattern: (typeof BREATHING_PATTERN_IDS)[number]) => BREATHING_PATTERNS[pattern].phases.map((p) => `${PHASE_WORDS[p.kind]} ${p.seconds}`);

describe('the patterns', () => {
  it('are the four the issue names, with its words and timings', () => {
    expect(BREATHING_PATTERN_IDS.map((id) => BREATHING_PATTERNS[id].label)).toEqual(['Box breathing', '4-7-8', 'Coherent breathing', 'Physiological sigh']);
    expect(words('box')).toEqual(['Breathe in 4', 'Hold 4', 'Breathe out 4', 'Hold 4']);
    expect(words('4-7-8')).toEqual(['Breathe in 4', 'Hold 7', 'Breathe out 8']);
    expect(words('coherent')).toEqual(['Breathe in 5.5', 'Breathe out 5.5']);
    // The sigh: a breath in, a top-up breath in with its own words, a long breath out.
    expect(words('sigh')).toEqual(['Breathe in 2', 'Breathe in again 1', 'Breathe out 6']);
    expect(BREATHING_PATTERN_IDS.map(cycleSeconds)).toEqual([16, 19, 11, 9]);
  });
});

describe('planBreathing', () => {
  it('lays the phases end to end, in order, cycle after cycle', () => {
    const plan = planBreathing({ pattern: '4-7-8', length: { count: 3, unit: 'cycles' } });
    expect(plan.cycles).toBe(3);
    expect(plan.totalSeconds).toBe(57);
    expect(plan.phases.slice(0, 4)).toEqual([
      { kind: 'in', at: 0, seconds: 4, cycle: 1 },
      { kind: 'hold', at: 4, seconds: 7, cycle: 1 },
      { kind: 'out', at: 11, seconds: 8, cycle: 1 },
      { kind: 'in', at: 19, seconds: 4, cycle: 2 },
    ]);
    expect(plan.phases.at(-1)).toEqual({ kind: 'out', at: 49, seconds: 8, cycle: 3 });
    for (const [i, phase] of plan.phases.entries()) if (i > 0) expect(phase.at).toBe(plan.phases[i - 1].at + plan.phases[i - 1].seconds);
  });

  it('gives the sigh its top-up in every cycle, between the breath in and the long breath out', () => {
    const plan = planBreathing({ pattern: 'sigh', length: { count: 5, unit: 'cycles' } });
    expect(plan.phases.map((p) => p.kind)).toEqual(Array.from({ length: 5 }, () => ['in', 'in-again', 'out']).flat());
    expect(plan.phases.filter((p) => p.kind === 'in-again').map((p) => p.at)).toEqual([2, 11, 20, 29, 38]);
    expect(plan.totalSeconds).toBe(45);
  });

  it('counts a length in minutes as the nearest whole number of cycles, at least one, ending with a whole cycle', () => {
    expect(planBreathing({ pattern: 'box', length: { count: 1, unit: 'minutes' } })).toMatchObject({ cycles: 4, totalSeconds: 64 });
    expect(planBreathing({ pattern: '4-7-8', length: { count: 1, unit: 'minutes' } })).toMatchObject({ cycles: 3, totalSeconds: 57 });
    expect(planBreathing({ pattern: 'coherent', length: { count: 10, unit: 'minutes' } })).toMatchObject({ cycles: 55, totalSeconds: 605 });
    expect(planBreathing({ pattern: 'sigh', length: { count: 3, unit: 'minutes' } })).toMatchObject({ cycles: 20, totalSeconds: 180 });
    // Ten minutes of every pattern stay within a few seconds of ten minutes.
    for (const pattern of BREATHING_PATTERN_IDS) expect(Math.abs(planBreathing({ pattern, length: { count: 10, unit: 'minutes' } }).totalSeconds - 600)).toBeLessThanOrEqual(cycleSeconds(pattern) / 2);
    // Coherent breathing's half seconds add up to whole seconds at the end of every cycle.
    expect(planBreathing({ pattern: 'coherent', length: { count: 1, unit: 'minutes' } }).phases.filter((p) => p.kind === 'in').map((p) => p.at)).toEqual([0, 11, 22, 33, 44]);
  });

  it('counts a length in cycles as that many cycles', () => {
    for (const count of [1, 3, 5, 10] as const) expect(planBreathing({ pattern: 'box', length: { count, unit: 'cycles' } })).toMatchObject({ cycles: count, totalSeconds: 16 * count });
  });
});

describe('phaseAt', () => {
  const plan = planBreathing({ pattern: '4-7-8', length: { count: 1, unit: 'cycles' } });

  it('names the phase under way and the seconds left in it', () => {
    expect(phaseAt(plan, 0)).toEqual({ index: 0, phase: plan.phases[0], remaining: 4 });
    expect(phaseAt(plan, 3.9)).toMatchObject({ index: 0, remaining: expect.closeTo(0.1, 6) });
    expect(phaseAt(plan, 4)).toMatchObject({ index: 1, phase: { kind: 'hold' }, remaining: 7 });
    expect(phaseAt(plan, 12)).toMatchObject({ index: 2, phase: { kind: 'out' }, remaining: 7 });
    expect(phaseAt(plan, -1)).toMatchObject({ index: 0, remaining: 4 });
  });

  it('is done at the end of the last phase', () => {
    expect(phaseAt(plan, 18.99)).toMatchObject({ index: 2 });
    expect(phaseAt(plan, 19)).toEqual({ done: true });
    expect(phaseAt(plan, 1000)).toEqual({ done: true });
  });
});

describe('guideScale', () => {
  it('grows on a breath in, stays on a hold, shrinks on a breath out; the sigh grows in two steps', () => {
    const box = planBreathing({ pattern: 'box', length: { count: 1, unit: 'cycles' } });
    expect(box.phases.map((_, i) => guideScale(box, i))).toEqual([1, 1, 0, 0]);
    const sigh = planBreathing({ pattern: 'sigh', length: { count: 1, unit: 'cycles' } });
    expect(sigh.phases.map((_, i) => guideScale(sigh, i))).toEqual([0.8, 1, 0]);
  });
});

describe('settings kept on the device', () => {
  it('reads what was kept and falls back field by field', () => {
    expect(readBreathingSettings({ pattern: 'sigh', length: { count: 10, unit: 'cycles' }, sound: false, haptics: false })).toEqual({ pattern: 'sigh', length: { count: 10, unit: 'cycles' }, sound: false, haptics: false });
    expect(readBreathingSettings({ pattern: 'yoga', length: { count: 7, unit: 'cycles' }, sound: 'loud' })).toEqual(DEFAULT_BREATHING_SETTINGS);
    expect(readBreathingSettings({ pattern: '4-7-8', sound: false })).toEqual({ ...DEFAULT_BREATHING_SETTINGS, pattern: '4-7-8', sound: false });
    expect(readBreathingSettings(null)).toEqual(DEFAULT_BREATHING_SETTINGS);
    expect(readBreathingSettings('box')).toEqual(DEFAULT_BREATHING_SETTINGS);
  });

  it('names a length in words', () => {
    expect(lengthLabel({ count: 1, unit: 'minutes' })).toBe('1 minute');
    expect(lengthLabel({ count: 10, unit: 'cycles' })).toBe('10 cycles');
    expect(lengthLabel({ count: 1, unit: 'cycles' })).toBe('1 cycle');
  });
});
