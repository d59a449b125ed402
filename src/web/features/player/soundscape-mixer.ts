/**
 * The background sound's audio graph (issue 37, item 3; decision 0056). One AudioContext carries both:
 *
 *   <audio> ×2 ─ MediaElementAudioSourceNode ─┐
 *                                             voice bus ─┬─ destination
 *                                                        └─ analyser (is the voice speaking?)
 *   bed: AudioBufferSourceNode (loop) ─ fade ─ duck ─ volume ─ destination
 *
 * The voice's elements are routed into the graph only once a bed is to play and the context runs:
 * a context that a browser keeps suspended would silence a routed voice, and someone who never
 * chooses a background sound keeps the plain player (no context, no cost). Once routed, an element
 * stays routed for the life of the page (the Web Audio API has no way back), so the context is never
 * suspended or closed after that; the bed's own source is stopped whenever it is not heard.
 *
 * A plain object with its ports injected (the context, the bytes, the clock), so the tests drive it
 * with a fake context and fake timers.
 */
import { SOUNDSCAPE, soundscapeUrl, type SoundscapeChoice, type SoundscapeId } from '#shared/soundscapes.ts';
import { duckStep, levelDb, NOT_DUCKED, type DuckState } from '#web/features/player/ducking.ts';

export type MixerPorts = {
  createContext: () => AudioContext;
  fetchBytes: (url: string) => Promise<ArrayBuffer>;
  /** The player's <audio> elements (both crossfade slots). */
  voiceElements: () => readonly (HTMLMediaElement | null)[];
  now?: () => number;
};

/** What the bed is doing, for the page (and the journeys) to read. */
export type BedState = 'off' | 'loading' | 'playing' | 'paused';

type Graph = { context: AudioContext; voice: GainNode; analyser: AnalyserNode; duck: GainNode; volume: GainNode };
type Playing = { id: SoundscapeId; source: AudioBufferSourceNode; fade: GainNode; startedAt: number; offset: number; span: LoopSpan };
type LoopSpan = { start: number; end: number };

/** Below this a sample is the decoder's padding, not the bed (about -80 dBFS). */
const SILENCE = 1e-4;

/**
 * Where the bed's sound begins and ends in its decoded buffer. The files are seamless loops, but an
 * MP3 decoder may add a few milliseconds of silence at either end (encoder delay and padding, which
 * not every browser trims): looping over them would put a gap in the rain once a minute.
 */
export function audibleSpan(samples: Float32Array, sampleRate: number): LoopSpan {
  let first = 0;
  while (first < samples.length && Math.abs(samples[first]) < SILENCE) first += 1;
  let last = samples.length - 1;
  while (last > first && Math.abs(samples[last]) < SILENCE) last -= 1;
  if (first >= last) return { start: 0, end: samples.length / sampleRate };
  return { start: first / sampleRate, end: (last + 1) / sampleRate };
}

export function createSoundscapeMixer({ createContext, fetchBytes, voiceElements, now = () => performance.now() }: MixerPorts) {
  let graph: Graph | null = null;
  const routed = new WeakSet<HTMLMediaElement>();
  const buffers = new Map<SoundscapeId, Promise<AudioBuffer>>();
  let choice: SoundscapeChoice = 'none';
  let volume: number = SOUNDSCAPE.defaultVolume;
  /** Whether the voice plays, so the bed should. */
  let wanted = false;
  let playing: Playing | null = null;
  /** Where in its loop a paused bed resumes (a pause pauses the bed too, it does not rewind it). */
  let resumeAt: { id: SoundscapeId; offset: number } | null = null;
  /** Bumped by every change of mind, so a bed that finishes loading late does not start after it. */
  let generation = 0;
  let state: BedState = 'off';
  let duck: DuckState = NOT_DUCKED;
  let duckTimer: ReturnType<typeof setInterval> | undefined;
  const listeners = new Set<() => void>();

  const set = (next: BedState) => {
    if (state === next) return;
    state = next;
    for (const listener of listeners) listener();
  };

  /** The context and the fixed part of the graph, made on first need (inside a tap when it can be: browsers start sound from a gesture). */
  function ensureGraph(): Graph {
    if (graph) return graph;
    const context = createContext();
    const voice = context.createGain();
    voice.connect(context.destination);
    const analyser = context.createAnalyser();
    analyser.fftSize = 1024;
    voice.connect(analyser);
    const volumeNode = context.createGain();
    volumeNode.gain.value = volume;
    volumeNode.connect(context.destination);
    const duckNode = context.createGain();
    duckNode.connect(volumeNode);
    graph = { context, voice, analyser, duck: duckNode, volume: volumeNode };
    // Asked for here, synchronously, so a choice made with a tap starts the context on that tap.
    void context.resume().catch((error: unknown) => console.warn('soundscape: audio context would not start', error));
    return graph;
  }

  /** Brings the voice's elements into the graph, once the context runs (a suspended one would silence them). */
  function routeVoice(current: Graph): boolean {
    if (current.context.state !== 'running') return false;
    for (const element of voiceElements()) {
      if (!element || routed.has(element)) continue;
      current.context.createMediaElementSource(element).connect(current.voice);
      routed.add(element);
    }
    return true;
  }

  function load(current: Graph, id: SoundscapeId): Promise<AudioBuffer> {
    let pending = buffers.get(id);
    if (!pending) {
      // decodeAudioData detaches the bytes it is given; nothing else needs them.
      pending = fetchBytes(soundscapeUrl(id)).then((bytes) => current.context.decodeAudioData(bytes));
      // A failed load is forgotten, so choosing the bed again tries again.
      pending.catch(() => buffers.delete(id));
      buffers.set(id, pending);
    }
    return pending;
  }

  /** Fades the playing bed out and stops it; remembers where it was when it is paused, not stopped. */
  function release(keepPlace: boolean): void {
    const current = playing;
    playing = null;
    stopDucking();
    if (!current || !graph) return;
    const t = graph.context.currentTime;
    const elapsed = t - current.startedAt;
    const length = current.span.end - current.span.start;
    resumeAt = keepPlace ? { id: current.id, offset: current.span.start + ((current.offset - current.span.start + elapsed) % length) } : null;
    current.fade.gain.cancelScheduledValues(t);
    current.fade.gain.setValueAtTime(current.fade.gain.value, t);
    current.fade.gain.linearRampToValueAtTime(0, t + SOUNDSCAPE.fadeSeconds);
    current.source.stop(t + SOUNDSCAPE.fadeSeconds);
    current.source.addEventListener('ended', () => current.fade.disconnect());
  }

  async function begin(): Promise<void> {
    const id = choice;
    const ticket = ++generation;
    if (id === 'none' || !wanted) return;
    const current = ensureGraph();
    set('loading');
    let buffer: AudioBuffer;
    try {
      if (current.context.state !== 'running') await current.context.resume();
      buffer = await load(current, id);
    } catch (error) {
      console.warn('soundscape: background sound unavailable', error);
      if (ticket === generation) set('off');
      return;
    }
    if (ticket !== generation || playing?.id === id) return;
    // Without a running context the voice stays on its own and the bed stays silent.
    if (!routeVoice(current)) {
      set('off');
      return;
    }
    release(false);
    const span = audibleSpan(buffer.getChannelData(0), buffer.sampleRate);
    const source = current.context.createBufferSource();
    source.buffer = buffer;
    source.loop = true;
    source.loopStart = span.start;
    source.loopEnd = span.end;
    const fade = current.context.createGain();
    const t = current.context.currentTime;
    fade.gain.setValueAtTime(0, t);
    fade.gain.linearRampToValueAtTime(1, t + SOUNDSCAPE.fadeSeconds);
    source.connect(fade);
    fade.connect(current.duck);
    const offset = resumeAt?.id === id ? resumeAt.offset : span.start;
    resumeAt = null;
    source.start(t, offset);
    playing = { id, source, fade, startedAt: t, offset, span };
    startDucking(current);
    set('playing');
  }

  /** Reads the voice's level while the bed plays, and lowers the bed under speech (ducking.ts). */
  function startDucking(current: Graph): void {
    stopDucking();
    const samples = new Float32Array(current.analyser.fftSize);
    duckTimer = setInterval(() => {
      current.analyser.getFloatTimeDomainData(samples);
      const next = duckStep(duck, levelDb(samples), now());
      if (next.ducked !== duck.ducked) {
        const { gain, attackSeconds, releaseSeconds } = SOUNDSCAPE.duck;
        current.duck.gain.setTargetAtTime(next.ducked ? gain : 1, current.context.currentTime, next.ducked ? attackSeconds : releaseSeconds);
      }
      duck = next;
    }, SOUNDSCAPE.duck.pollMs);
  }

  function stopDucking(): void {
    clearInterval(duckTimer);
    duckTimer = undefined;
    if (duck.ducked && graph) graph.duck.gain.setTargetAtTime(1, graph.context.currentTime, SOUNDSCAPE.duck.releaseSeconds);
    duck = NOT_DUCKED;
  }

  return {
    /**
     * A new choice. Made with a tap (`byGesture`), it starts the context on that tap even while nothing
     * plays, as the stricter browsers ask; the kept choice read at load waits for the voice to play.
     */
    choose(next: SoundscapeChoice, byGesture = false): void {
      if (next === choice) return;
      choice = next;
      generation += 1;
      resumeAt = null;
      if (next === 'none') {
        release(false);
        set('off');
        return;
      }
      if (byGesture) ensureGraph();
      if (wanted) void begin();
      else if (state === 'off') set('paused');
    },
    setVolume(next: number): void {
      volume = Math.min(1, Math.max(0, next));
      if (graph) graph.volume.gain.setTargetAtTime(volume, graph.context.currentTime, 0.03);
    },
    /** The voice plays: so does the bed (resuming where it paused). */
    play(): void {
      wanted = true;
      if (playing?.id === choice) return;
      void begin();
    },
    /** The voice paused (or the sleep timer is fading it out): the bed fades out too and keeps its place. */
    pause(): void {
      wanted = false;
      generation += 1;
      release(true);
      if (choice !== 'none') set('paused');
    },
    /** The track ended or the player closed: the bed stops and starts from its beginning next time. */
    stop(): void {
      wanted = false;
      generation += 1;
      release(false);
      resumeAt = null;
      set('off');
    },
    getState: (): BedState => state,
    subscribe(listener: () => void): () => void {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

export type SoundscapeMixer = ReturnType<typeof createSoundscapeMixer>;
