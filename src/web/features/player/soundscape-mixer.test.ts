/**
 * The background sound's graph and rules (issue 37, item 3) with a fake AudioContext and fake timers:
 * the voice routed through the graph only once a bed plays and the context runs, the bed looping on
 * its audible span into its own gain, pause keeping its place, stop and a change of bed, the volume,
 * the sleep timer's fade, ducking under speech, and what the player's moves ask of the bed.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { MeditationCard } from '#shared/contracts/catalogue.ts';
import { SOUNDSCAPE, type SoundscapeId } from '#shared/soundscapes.ts';
import { duckStep, levelDb, NOT_DUCKED } from '#web/features/player/ducking.ts';
import { initialPlayerState, type PlayerState } from '#web/features/player/player-machine.ts';
import { audibleSpan, createSoundscapeMixer } from '#web/features/player/soundscape-mixer.ts';
import { bedAction } from '#web/features/player/soundscape.ts';

type Event = [string, ...number[]];

/** An AudioParam that records what is asked of it, and holds the value of the last request. */
class FakeParam {
  events: Event[] = [];
  constructor(public value: number) {}
  setValueAtTime(v: number, t: number) {
    this.events.push(['set', v, t]);
    this.value = v;
  }
  linearRampToValueAtTime(v: number, t: number) {
    this.events.push(['ramp', v, t]);
    this.value = v;
  }
  setTargetAtTime(v: number, t: number, tc: number) {
    this.events.push(['target', v, t, tc]);
    this.value = v;
  }
  cancelScheduledValues(t: number) {
    this.events.push(['cancel', t]);
  }
}

class FakeNode {
  outputs: unknown[] = [];
  constructor(readonly kind: string) {}
  connect(to: unknown) {
    this.outputs.push(to);
    return to;
  }
  disconnect() {
    this.outputs = [];
  }
}

class FakeGain extends FakeNode {
  gain = new FakeParam(1);
  constructor() {
    super('gain');
  }
}

class FakeAnalyser extends FakeNode {
  fftSize = 2048;
  /** The level the voice has now (what the next read returns). */
  level = 0;
  constructor() {
    super('analyser');
  }
  getFloatTimeDomainData(into: Float32Array) {
    into.fill(this.level);
  }
}

class FakeBufferSource extends FakeNode {
  buffer: FakeBuffer | null = null;
  loop = false;
  loopStart = 0;
  loopEnd = 0;
  started: [number, number] | null = null;
  stoppedAt: number | null = null;
  private ended: (() => void)[] = [];
  constructor() {
    super('source');
  }
  start(when: number, offset: number) {
    this.started = [when, offset];
  }
  stop(when: number) {
    this.stoppedAt = when;
  }
  addEventListener(_name: 'ended', listener: () => void) {
    this.ended.push(listener);
  }
  end() {
    for (const listener of this.ended) listener();
  }
}

/** A decoded bed: 1 s at 100 Hz, with the decoder's silence at both ends (10 and 5 samples). */
class FakeBuffer {
  sampleRate = 100;
  constructor(readonly name: string) {}
  getChannelData() {
    const samples = new Float32Array(100).fill(0.2);
    samples.fill(0, 0, 10);
    samples.fill(0, 95);
    return samples;
  }
}

class FakeContext {
  currentTime = 0;
  state: AudioContextState = 'suspended';
  /** Whether resume() starts it (a browser that wants a gesture first says no). */
  allowStart = true;
  destination = new FakeNode('destination');
  gains: FakeGain[] = [];
  sources: FakeBufferSource[] = [];
  analyser: FakeAnalyser | null = null;
  mediaSources = new Map<unknown, FakeNode>();
  resume = vi.fn(() => {
    if (this.allowStart) this.state = 'running';
    return Promise.resolve();
  });
  createGain() {
    const gain = new FakeGain();
    this.gains.push(gain);
    return gain;
  }
  createAnalyser() {
    this.analyser = new FakeAnalyser();
    return this.analyser;
  }
  createBufferSource() {
    const source = new FakeBufferSource();
    this.sources.push(source);
    return source;
  }
  createMediaElementSource(element: unknown) {
    if (this.mediaSources.has(element)) throw new Error('an element can be routed once');
    const node = new FakeNode('media');
    this.mediaSources.set(element, node);
    return node;
  }
  decodeAudioData(bytes: ArrayBuffer) {
    return Promise.resolve(new FakeBuffer(new TextDecoder().decode(bytes)));
  }
}

function setup() {
  const context = new FakeContext();
  const voices = [{ id: 'slot0' }, { id: 'slot1' }];
  const fetched: string[] = [];
  const createContext = vi.fn(() => context as unknown as AudioContext);
  const mixer = createSoundscapeMixer({
    createContext,
    fetchBytes: (url) => {
      fetched.push(url);
      return Promise.resolve(new TextEncoder().encode(url).buffer);
    },
    voiceElements: () => voices as unknown as HTMLMediaElement[],
    // Fake timers move Date.now() with them.
    now: () => Date.now(),
  });
  /** Moves both clocks on by `ms`, 10 ms at a time (in these tests the audio thread never lags). */
  const tick = async (ms: number) => {
    for (let done = 0; done < ms; done += 10) {
      await vi.advanceTimersByTimeAsync(Math.min(10, ms - done));
      context.currentTime += Math.min(10, ms - done) / 1000;
    }
  };
  // Let the bed's fetch and decode (promises) settle.
  const settle = () => vi.advanceTimersByTimeAsync(0);
  return { context, voices, fetched, createContext, mixer, tick, settle };
}

/** A mixer playing `bed`, chosen with a tap, once it has loaded. */
async function playing(bed: SoundscapeId) {
  const made = setup();
  made.mixer.choose(bed, true);
  made.mixer.play();
  await made.settle();
  return made;
}

/** The bed's chain: source → its fade → duck → volume → destination. */
function chainOf(source: FakeBufferSource) {
  const fade = source.outputs[0] as FakeGain;
  const duck = fade.outputs[0] as FakeGain;
  const volume = duck.outputs[0] as FakeGain;
  return { fade, duck, volume };
}

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('the background sound mixer', () => {
  it('makes no audio context for someone who never chooses a bed, so the plain player stays as it was', async () => {
    const { mixer, createContext, settle } = setup();
    mixer.play();
    await settle();
    mixer.pause();
    mixer.stop();
    expect(createContext).not.toHaveBeenCalled();
    expect(mixer.getState()).toBe('off');
  });

  it('plays a chosen bed under the voice: both elements routed into the voice bus, the bed looping over its audible span into its own gain', async () => {
    const { context, voices, fetched, mixer, settle } = setup();
    mixer.setVolume(0.4);
    mixer.choose('rain', true);
    // Chosen with a tap: the context is made and started on that tap, before anything plays.
    expect(context.resume).toHaveBeenCalledTimes(1);
    expect(mixer.getState()).toBe('paused');
    expect(context.sources).toHaveLength(0);

    mixer.play();
    expect(mixer.getState()).toBe('loading');
    await settle();
    expect(mixer.getState()).toBe('playing');
    expect(fetched).toEqual(['/sounds/beds/rain.mp3']);
    // The voice: each <audio> through a MediaElementAudioSourceNode into one bus, heard and measured.
    const voiceBus = context.mediaSources.get(voices[0])!.outputs[0] as FakeGain;
    expect(context.mediaSources.get(voices[1])!.outputs[0]).toBe(voiceBus);
    expect(voiceBus.outputs).toEqual([context.destination, context.analyser]);
    // The bed: one looping source, skipping the decoder's silent edges, fading in, at the chosen volume.
    const [bed] = context.sources;
    expect(bed.buffer!.name).toBe('/sounds/beds/rain.mp3');
    expect(bed.loop).toBe(true);
    expect([bed.loopStart, bed.loopEnd]).toEqual([0.1, 0.95]);
    expect(bed.started).toEqual([0, 0.1]);
    const { fade, volume } = chainOf(bed);
    expect(fade.gain.events).toEqual([
      ['set', 0, 0],
      ['ramp', 1, SOUNDSCAPE.fadeSeconds],
    ]);
    expect(volume.gain.value).toBe(0.4);
    expect(volume.outputs).toEqual([context.destination]);
    mixer.stop();
  });

  it('pauses with the voice (fading out, keeping its place) and resumes from there; a stop starts it over', async () => {
    const { context, mixer, tick, settle } = await playing('ocean');
    const [first] = context.sources;
    await tick(2_300);

    mixer.pause();
    expect(mixer.getState()).toBe('paused');
    expect(chainOf(first).fade.gain.events.at(-1)).toEqual(['ramp', 0, expect.closeTo(2.3 + SOUNDSCAPE.fadeSeconds)]);
    expect(first.stoppedAt).toBeCloseTo(2.3 + SOUNDSCAPE.fadeSeconds);
    first.end();
    expect((first.outputs[0] as FakeGain).outputs).toEqual([]);

    mixer.play();
    await settle();
    const second = context.sources[1];
    // 2.3 s into a 0.85 s loop that starts at 0.1 s: 0.1 + (2.3 mod 0.85) = 0.7 s.
    expect(second.started![1]).toBeCloseTo(0.7);
    // Rebuilding the bed never routes the voice twice (that would throw in a browser).
    expect(context.mediaSources.size).toBe(2);

    mixer.stop();
    expect(mixer.getState()).toBe('off');
    expect(second.stoppedAt).not.toBeNull();
    mixer.choose('rain', true);
    mixer.play();
    await settle();
    expect(context.sources[2].started![1]).toBeCloseTo(0.1);
    mixer.stop();
  });

  it('changes bed while playing (the new one in once loaded, the old one faded out), and None stops it', async () => {
    const { context, fetched, mixer, settle } = await playing('forest');
    mixer.choose('brown-noise', true);
    await settle();
    expect(fetched).toEqual(['/sounds/beds/forest.mp3', '/sounds/beds/brown-noise.mp3']);
    const [forest, brown] = context.sources;
    expect(forest.stoppedAt).not.toBeNull();
    expect(brown.stoppedAt).toBeNull();
    expect(mixer.getState()).toBe('playing');

    // Back to forest: its bytes are not fetched again.
    mixer.choose('forest', true);
    await settle();
    expect(fetched).toHaveLength(2);

    mixer.choose('none', true);
    expect(context.sources[2].stoppedAt).not.toBeNull();
    expect(mixer.getState()).toBe('off');
  });

  it('a bed still loading when the voice pauses does not start afterwards', async () => {
    const { context, mixer, settle } = setup();
    mixer.choose('rain', true);
    mixer.play();
    mixer.pause();
    await settle();
    expect(context.sources).toHaveLength(0);
    expect(mixer.getState()).toBe('paused');
  });

  it('leaves the voice alone when the browser keeps the context suspended (a routed voice would go silent)', async () => {
    const { context, mixer, settle } = setup();
    context.allowStart = false;
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    mixer.choose('rain');
    mixer.play();
    await settle();
    expect(context.mediaSources.size).toBe(0);
    expect(context.sources).toHaveLength(0);
    expect(mixer.getState()).toBe('off');
  });

  it('moves the volume smoothly, on the audio clock', async () => {
    const { context, mixer } = await playing('rain');
    const { volume } = chainOf(context.sources[0]);
    mixer.setVolume(1.7);
    expect(volume.gain.events.at(-1)).toEqual(['target', 1, 0, 0.03]);
    mixer.stop();
  });

  it('ducks the bed about 6 dB while the voice speaks, and brings it back only after a quiet spell', async () => {
    const { context, mixer, tick } = await playing('rain');
    const { duck } = chainOf(context.sources[0]);
    const analyser = context.analyser!;
    const { gain, attackSeconds, releaseSeconds, pollMs, holdMs } = SOUNDSCAPE.duck;

    analyser.level = 0.1; // -20 dBFS: speech
    await tick(pollMs);
    expect(duck.gain.events.at(-1)).toEqual(['target', gain, expect.any(Number), attackSeconds]);

    // A breath between words: still ducked.
    analyser.level = 0.005; // -46 dBFS
    await tick(holdMs - pollMs);
    expect(duck.gain.value).toBe(gain);
    analyser.level = 0.1;
    await tick(pollMs);
    analyser.level = 0.005;
    await tick(holdMs + 2 * pollMs);
    expect(duck.gain.events.at(-1)).toEqual(['target', 1, expect.any(Number), releaseSeconds]);

    // Reading stops with the bed.
    mixer.pause();
    const reads = duck.gain.events.length;
    analyser.level = 0.1;
    await tick(10 * pollMs);
    expect(duck.gain.events).toHaveLength(reads);
  });
});

describe('ducking', () => {
  it('reads a block’s RMS level in dBFS', () => {
    expect(levelDb(new Float32Array(8).fill(0.1))).toBeCloseTo(-20);
    expect(levelDb(new Float32Array(8))).toBe(-Infinity);
  });

  it('ducks at once above the threshold and releases after the hold', () => {
    let state = duckStep(NOT_DUCKED, -20, 0);
    expect(state).toEqual({ ducked: true, quietSince: null });
    state = duckStep(state, -50, 100);
    expect(state).toEqual({ ducked: true, quietSince: 100 });
    expect(duckStep(state, -50, 100 + SOUNDSCAPE.duck.holdMs - 1).ducked).toBe(true);
    expect(duckStep(state, -50, 100 + SOUNDSCAPE.duck.holdMs)).toEqual(NOT_DUCKED);
    expect(duckStep(NOT_DUCKED, -50, 0)).toBe(NOT_DUCKED);
  });
});

describe('the bed’s audible span', () => {
  it('skips the decoder’s silence at both ends, and keeps a silent buffer whole', () => {
    const samples = new Float32Array([0, 0, 0.3, -0.2, 0.1, 0]);
    expect(audibleSpan(samples, 2)).toEqual({ start: 1, end: 2.5 });
    expect(audibleSpan(new Float32Array(4), 2)).toEqual({ start: 0, end: 2 });
  });
});

describe('what the player’s moves ask of the bed', () => {
  const track = { id: 'a', title: 'A' } as MeditationCard;
  const at = (change: Partial<PlayerState>): PlayerState => ({ ...initialPlayerState, current: track, playId: 'p', ...change });

  it('plays with the voice, pauses with it, and holds through loading (the next track, or the stream catching up)', () => {
    expect(bedAction(at({ status: 'loading' }), at({ status: 'playing' }), 0)).toBe('play');
    expect(bedAction(at({ status: 'playing' }), at({ status: 'paused' }), 0)).toBe('pause');
    expect(bedAction(at({ status: 'playing' }), at({ status: 'error' }), 0)).toBe('pause');
    expect(bedAction(at({ status: 'playing' }), at({ status: 'loading' }), 0)).toBeNull();
    expect(bedAction(at({ status: 'playing', currentTime: 1 }), at({ status: 'playing', currentTime: 2 }), 0)).toBeNull();
  });

  it('stops when the track ends or the player closes', () => {
    expect(bedAction(at({ status: 'playing' }), initialPlayerState, 0)).toBe('stop');
    expect(bedAction(initialPlayerState, initialPlayerState, 0)).toBeNull();
  });

  it('fades with the voice when the sleep timer runs out, not when the listener turns it off', () => {
    expect(bedAction(at({ status: 'playing', sleepAt: 1_000 }), at({ status: 'playing', sleepAt: null }), 1_000)).toBe('pause');
    expect(bedAction(at({ status: 'playing', sleepAt: 1_000 }), at({ status: 'playing', sleepAt: null }), 400)).toBeNull();
  });
});
