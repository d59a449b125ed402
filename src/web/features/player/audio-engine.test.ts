/**
 * The player's audio engine in fake time (issue 32, item 2): its two <audio> elements are fakes whose
 * media clock the test moves (tests/fakes/media-element.ts), its timers, Date and performance are
 * vitest's fake clock, and the server's playback answer comes through fetch. What the browser journeys
 * would otherwise wait for in real time: the start delay, the fade-in and the crossfade, step by step;
 * a track heard to its end at 1.25× counted as heard and a skipped one not; the load timeout; an expired
 * link renewed at the same place; a refused autoplay.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AUDIO } from '#shared/constants.ts';
import { PLAYER_MESSAGES } from '#shared/player-messages.ts';
import { createAudioEngine, type FinishedPlay } from '#web/features/player/audio-engine.ts';
import { initialPlayerState } from '#web/features/player/player-machine.ts';
import { createPlayerStore } from '#web/features/player/player-store.ts';
import { FakeMediaElement } from '#tests/fakes/media-element.ts';
import { answerFetch, json } from '#tests/setup/render-web.tsx';
import { meditationCard } from '#tests/meditation-cards.ts';

vi.mock('#web/lib/toast.ts', () => {
  const ignore = () => undefined;
  return { toast: { success: ignore, error: ignore, info: ignore, warning: ignore } };
});

const card = (id: string, durationSeconds: number) => meditationCard(id, { durationSeconds, duration: `${String(durationSeconds / 60)} min` });
const evening = card('evening', 120);
const shore = card('shore', 90);
const LINK_LIFETIME_MS = 5 * 60_000;

/** The engine on a store and two fake elements, with the server's signed links counted. */
function setUp() {
  const links: string[] = [];
  const fetch = answerFetch((url) => {
    const id = /\/api\/meditations\/(\w+)\/playback$/.exec(url)?.[1];
    if (!id) return json({ error: { code: 'not_found', message: 'Not found' } }, 404);
    links.push(`/media/meditations/${id}.mp3?sig=${String(links.length + 1)}`);
    return json({ url: links.at(-1), expiresAt: new Date(Date.now() + LINK_LIFETIME_MS).toISOString(), mimeType: 'audio/mpeg', transcript: null });
  });
  const store = createPlayerStore({ ...initialPlayerState });
  const engine = createAudioEngine(store);
  const lengths: Record<string, number> = { evening: 120, shore: 90 };
  const lengthOf = (src: string) => lengths[/meditations\/(\w+)\.mp3/.exec(src)?.[1] ?? ''] ?? Number.NaN;
  const elements = [new FakeMediaElement(engine.events, lengthOf), new FakeMediaElement(engine.events, lengthOf)] as const;
  engine.attach(0, elements[0].asElement());
  engine.attach(1, elements[1].asElement());
  const finished: FinishedPlay[] = [];
  engine.onFinished((play) => finished.push(play));
  return { engine, store, state: () => store.getState(), elements, finished, links, fetch };
}

/** Past the spec's start delay and the playback answer, to the moment the element is asked to play. */
const pastStart = () => vi.advanceTimersByTimeAsync(AUDIO.startDelayMs);

beforeEach(() => {
  vi.useFakeTimers({ now: new Date('2026-11-28T09:00:00Z') });
});
afterEach(() => {
  vi.useRealTimers();
});

describe('the audio engine, in fake time', () => {
  it('waits the spec’s short delay before asking for the track, then fades in over ten 25 ms steps', async () => {
    const { engine, state, elements, fetch } = setUp();
    void engine.start(evening, [evening, shore]);
    expect(state().status).toBe('loading');
    await vi.advanceTimersByTimeAsync(AUDIO.startDelayMs - 1);
    expect(fetch).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(fetch).toHaveBeenCalledTimes(1);
    expect(elements[0].src).toBe('/media/meditations/evening.mp3?sig=1');
    expect(state().status).toBe('playing');
    expect(elements[0].volume).toBe(0);

    // Each step at its time, not all at once.
    await vi.advanceTimersByTimeAsync(AUDIO.fadeIn.stepMs);
    expect(elements[0].volume).toBeCloseTo(0.1);
    await vi.advanceTimersByTimeAsync(AUDIO.fadeIn.stepMs * (AUDIO.fadeIn.steps - 1));
    expect(elements[0].volumes.map((v) => Math.round(v * 10) / 10)).toEqual([0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1, 1]);
  });

  it('counts a track heard to its end at 1.25× as heard (96 s of listening), and congratulates none that was skipped through', async () => {
    const { engine, store, state, elements, finished } = setUp();
    store.dispatch({ type: 'rate', rate: 1.25 });
    void engine.start(evening, [evening, shore]);
    await pastStart();
    expect(elements[0].playbackRate).toBe(1.25);
    elements[0].advance(96); // the two-minute track, at 1.25×
    expect(state().completed?.meditationId).toBe('evening');
    expect(finished).toHaveLength(1);
    // Heard from the first report of the position (a quarter second in) to the end.
    expect(finished[0]?.listened.ranges).toEqual([{ start: 0.3125, end: 120 }]);
    expect(finished[0]?.listened.seconds).toBeCloseTo(95.75);

    store.dispatch({ type: 'dismiss-completion' });
    store.dispatch({ type: 'rate', rate: 1 });
    void engine.start(shore, [evening, shore]);
    await pastStart();
    elements[0].advance(10);
    elements[0].seek(85); // the slider, most of the way
    elements[0].advance(5);
    expect(state().completed).toBeNull();
    expect(state().summary?.meditationId).toBe('shore');
    expect(finished[1]?.listened.ranges).toEqual([
      { start: 0.25, end: 10 },
      { start: 85, end: 90 },
    ]);
  });

  it('crossfades into another track over 250 ms, and the old track’s end then completes nothing', async () => {
    const { engine, state, elements, finished } = setUp();
    void engine.start(evening, [evening, shore]);
    await pastStart();
    await vi.advanceTimersByTimeAsync(AUDIO.fadeIn.stepMs * AUDIO.fadeIn.steps);
    elements[0].advance(70);

    void engine.start(shore, [evening, shore]);
    // The first track's 70 s are a session of their own (past the minute a partial play needs).
    expect(finished.map((play) => [play.meditationId, Math.round(play.listened.seconds)])).toEqual([['evening', 70]]);
    await pastStart();
    expect(elements[1].src).toBe('/media/meditations/shore.mp3?sig=2');
    expect(elements[0].paused).toBe(false); // still heard, fading out
    await vi.advanceTimersByTimeAsync(AUDIO.crossfade.totalMs / 2);
    expect(elements[1].volume).toBeCloseTo(0.5);
    expect(elements[0].volume).toBeCloseTo(0.5);
    await vi.advanceTimersByTimeAsync(AUDIO.crossfade.totalMs / 2);
    expect(elements[1].volume).toBe(1);
    expect(elements[0].hasAttribute('src')).toBe(false);

    // An end event from the element that let go describes no play the player knows.
    elements[0].finish();
    expect(state().current?.id).toBe('shore');
    expect(state().completed).toBeNull();
  });

  it('says so, in the spec’s words, when a track has not started after the load timeout', async () => {
    const { engine, state, elements } = setUp();
    elements[0].playAnswer = 'stalls';
    void engine.start(evening, [evening]);
    await pastStart();
    await vi.advanceTimersByTimeAsync(AUDIO.loadTimeoutMs - 1);
    expect(state().status).toBe('loading');
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    await vi.advanceTimersByTimeAsync(1);
    expect(state()).toMatchObject({ status: 'error', error: PLAYER_MESSAGES.loadTimeout });
  });

  it('renews an expired link before playing on, at the same place', async () => {
    const { engine, state, elements, links } = setUp();
    void engine.start(evening, [evening]);
    await pastStart();
    elements[0].advance(20);
    engine.pause();
    expect(state().status).toBe('paused');

    // Back after the link's lifetime (less the margin): a new link first, then on from 0:20.
    vi.setSystemTime(Date.now() + LINK_LIFETIME_MS - AUDIO.urlRefreshMarginMs);
    engine.play();
    await vi.advanceTimersByTimeAsync(0);
    expect(links).toHaveLength(2);
    expect(elements[0].src).toBe(links[1]);
    expect(elements[0].currentTime).toBe(20);
    expect(state().status).toBe('playing');
  });

  it('leaves the track paused at full volume when the browser refuses to start it without a tap', async () => {
    const { engine, state, elements } = setUp();
    elements[0].playAnswer = 'not-allowed';
    void engine.start(evening, [evening]);
    await pastStart();
    expect(state().status).toBe('paused');
    expect(elements[0].volume).toBe(1);
    await vi.advanceTimersByTimeAsync(AUDIO.loadTimeoutMs);
    expect(state().status).toBe('paused');
  });
});
