import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { crossfadeSchedule, fadeInSchedule, fadeOutSchedule, runFade } from '#web/features/player/fades.ts';
import { initialPlayerState, neighbours, percentToTime, playerReducer, progressPercent, skipTarget, type PlayerAction, type PlayerState } from '#web/features/player/player-machine.ts';
import { meditationCard } from '#tests/meditation-cards.ts';

const card = (id: string, durationSeconds = 120) => meditationCard(id, { durationSeconds });
const [a, b, c] = [card('a'), card('b'), card('c')];
const run = (actions: PlayerAction[], from: PlayerState = initialPlayerState) => actions.reduce(playerReducer, from);
const started = run([{ type: 'start', meditation: b, queue: [a, b, c], playId: 'p1' }]);

describe('player state machine', () => {
  it('offers where a track was left off to its own play only, and forgets it when another track starts (issue 20, item 2)', () => {
    const offered = run([{ type: 'offer-resume', playId: 'p1', seconds: 452 }], started);
    expect(offered.resumeOffer).toEqual({ playId: 'p1', seconds: 452 });
    expect(run([{ type: 'offer-resume', playId: 'old', seconds: 30 }], started).resumeOffer).toBeNull();
    expect(run([{ type: 'offer-resume', playId: 'p1', seconds: null }], offered).resumeOffer).toBeNull();
    expect(run([{ type: 'start', meditation: c, queue: [a, b, c], playId: 'p2' }], offered).resumeOffer).toBeNull();
  });

  it('starts loading, expanded, with the duration known from the card', () => {
    expect(started).toMatchObject({ current: b, status: 'loading', expanded: true, playId: 'p1', duration: 120, currentTime: 0, error: null });
  });

  it('loading → playing → paused → playing', () => {
    const s1 = run([{ type: 'playing' }], started);
    expect(s1.status).toBe('playing');
    const s2 = run([{ type: 'paused' }], s1);
    expect(s2.status).toBe('paused');
    expect(run([{ type: 'playing' }], s2).status).toBe('playing');
  });

  it('a wait or stall while playing sets not-playing; a wait while paused changes nothing', () => {
    const playing = run([{ type: 'playing' }], started);
    expect(run([{ type: 'waiting' }], playing).status).toBe('loading');
    const paused = run([{ type: 'paused' }], playing);
    expect(run([{ type: 'waiting' }], paused).status).toBe('paused');
  });

  it('an error stops playing, keeps the track and shows the message; a late pause does not hide it', () => {
    const failed = run([{ type: 'playing' }, { type: 'error', message: 'Too slow' }], started);
    expect(failed).toMatchObject({ status: 'error', error: 'Too slow', current: b });
    expect(run([{ type: 'paused' }], failed).status).toBe('error');
    expect(run([{ type: 'playing' }], failed)).toMatchObject({ status: 'playing', error: null });
  });

  it('tracks time and keeps the known duration when the element reports none', () => {
    const s = run([{ type: 'time', currentTime: 30, duration: 0 }], started);
    expect(s).toMatchObject({ currentTime: 30, duration: 120 });
    expect(progressPercent(s)).toBe(25);
    expect(run([{ type: 'time', currentTime: 30, duration: 60 }], started).duration).toBe(60);
  });

  it('ended clears the track, shows completion for that play once, and keeps the speed', () => {
    const ended = run([{ type: 'rate', rate: 1.25 }, { type: 'playing' }, { type: 'ended', complete: true }], started);
    expect(ended).toMatchObject({ current: null, status: 'idle', completed: { title: 'Track b', playId: 'p1' }, rate: 1.25, expanded: false });
    // A second 'ended' (some browsers fire twice) changes nothing.
    expect(run([{ type: 'ended', complete: true }], ended)).toBe(ended);
    expect(run([{ type: 'dismiss-completion' }], ended).completed).toBeNull();
  });

  it('after the overlay, keeps a summary of the play that ended with what comes next, until dismissed or a new play starts', () => {
    const ended = run([{ type: 'playing' }, { type: 'ended', complete: true }], started);
    expect(ended.summary).toBeNull();
    const summarised = run([{ type: 'dismiss-completion' }], ended);
    expect(summarised.summary).toMatchObject({ title: 'Track b', playId: 'p1', meditationId: 'b' });
    expect(summarised.summary).toEqual(ended.completed);
    expect(summarised.summary?.next?.id).toBe('c');
    expect(run([{ type: 'dismiss-summary' }], summarised).summary).toBeNull();
    expect(run([{ type: 'start', meditation: card('c'), queue: [card('c')], playId: 'p2' }], summarised).summary).toBeNull();
  });

  it('a track that ended without being heard (a seek to the end) gets no completion, only the calm summary', () => {
    const ended = run([{ type: 'playing' }, { type: 'ended', complete: false }], started);
    expect(ended).toMatchObject({ current: null, status: 'idle', completed: null, summary: { title: 'Track b', playId: 'p1', meditationId: 'b' } });
    expect(run([{ type: 'ended', complete: true }], ended)).toBe(ended);
  });

  it('close stops and clears everything, collapsed', () => {
    const closed = run([{ type: 'playing' }, { type: 'close' }], started);
    expect(closed).toMatchObject({ current: null, status: 'idle', expanded: false, playId: null, queue: [] });
  });

  it('expand and minimise; expand does nothing without a track', () => {
    const mini = run([{ type: 'minimise' }], started);
    expect(mini.expanded).toBe(false);
    expect(run([{ type: 'expand' }], mini).expanded).toBe(true);
    expect(run([{ type: 'expand' }]).expanded).toBe(false);
  });

  it('a new start replaces the play id and resets the source; late source news for an old play is ignored', () => {
    const next = run([{ type: 'source-ready', playId: 'p1', transcript: 'Breathe', local: true }, { type: 'start', meditation: c, queue: [a, b, c], playId: 'p2' }], started);
    expect(next).toMatchObject({ current: c, playId: 'p2', transcript: null, local: false });
    expect(run([{ type: 'source-ready', playId: 'p1', transcript: 'old', local: true }], next).transcript).toBeNull();
  });

  it('accepts only the offered speeds', () => {
    expect(run([{ type: 'rate', rate: 0.75 }]).rate).toBe(0.75);
    expect(run([{ type: 'rate', rate: 3 }]).rate).toBe(1);
  });

  it('offers previous and next only where a neighbour exists', () => {
    expect(neighbours(started)).toEqual({ previous: a, next: c });
    expect(neighbours(run([{ type: 'start', meditation: a, queue: [a, b, c], playId: 'x' }]))).toEqual({ previous: null, next: b });
    expect(neighbours(run([{ type: 'start', meditation: c, queue: [a, b, c], playId: 'x' }]))).toEqual({ previous: b, next: null });
    expect(neighbours(run([{ type: 'start', meditation: c, queue: [], playId: 'x' }]))).toEqual({ previous: null, next: null });
  });

  it('skips 15 s clamped to the track, and maps the slider proportionally', () => {
    expect(skipTarget(10, 120, -15)).toBe(0);
    expect(skipTarget(110, 120, 15)).toBe(120);
    expect(skipTarget(50, 120, 15)).toBe(65);
    expect(percentToTime(50, 120)).toBe(60);
    expect(percentToTime(33.3, 300)).toBeCloseTo(99.9);
    expect(percentToTime(150, 120)).toBe(120);
    expect(percentToTime(10, 0)).toBe(0);
  });
});

describe('fades', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('fade-in: 10 steps of 25 ms from silence to full', async () => {
    const steps = fadeInSchedule();
    expect(steps).toHaveLength(10);
    expect(steps.map((s) => s.atMs)).toEqual([25, 50, 75, 100, 125, 150, 175, 200, 225, 250]);
    const volumes: number[] = [];
    const fade = runFade(steps, (s) => volumes.push(s.incoming));
    vi.advanceTimersByTime(24);
    expect(volumes).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(volumes).toEqual([0.1]);
    vi.advanceTimersByTime(225);
    await fade.done;
    expect(volumes.at(-1)).toBe(1);
    expect(volumes).toHaveLength(10);
  });

  it('crossfade: 20 steps over 250 ms, the old track falling as the new one rises', async () => {
    const steps = crossfadeSchedule();
    expect(steps).toHaveLength(20);
    expect(steps.at(-1)).toEqual({ atMs: 250, incoming: 1, outgoing: 0 });
    const seen: Array<[number, number]> = [];
    const fade = runFade(steps, (s) => seen.push([s.incoming, s.outgoing]));
    vi.advanceTimersByTime(125);
    expect(seen).toHaveLength(10);
    expect(seen.at(-1)![0]).toBeCloseTo(0.5);
    expect(seen.at(-1)![1]).toBeCloseTo(0.5);
    vi.advanceTimersByTime(125);
    await fade.done;
    expect(seen).toHaveLength(20);
    expect(fadeOutSchedule().every((s) => s.incoming === 0)).toBe(true);
  });

  it('a cancelled fade stops applying steps', async () => {
    const seen: number[] = [];
    const fade = runFade(fadeInSchedule(), (s) => seen.push(s.incoming));
    vi.advanceTimersByTime(60);
    fade.cancel();
    vi.advanceTimersByTime(1000);
    await fade.done;
    expect(seen).toEqual([0.1, 0.2]);
  });
});

describe('offline copies and the subscription', () => {
  it('play only while the last known subscription covers now', async () => {
    const { entitlementCurrent } = await import('#web/features/downloads/offline-store.ts');
    const now = Date.parse('2026-11-23T12:00:00Z');
    const base = { userId: 'u', checkedAt: '2026-11-20T00:00:00Z' };
    expect(entitlementCurrent(undefined, now)).toBe(false);
    expect(entitlementCurrent({ ...base, subscribed: false, validUntil: null }, now)).toBe(false);
    expect(entitlementCurrent({ ...base, subscribed: true, validUntil: '2026-11-30T00:00:00Z' }, now)).toBe(true);
    expect(entitlementCurrent({ ...base, subscribed: true, validUntil: '2026-11-23T11:59:59Z' }, now)).toBe(false);
    // Admins (no period end) stay entitled.
    expect(entitlementCurrent({ ...base, subscribed: true, validUntil: null }, now)).toBe(true);
  });
});
