/**
 * An <audio> element whose media clock the test moves (issue 32, item 2): the parts of
 * HTMLMediaElement the player's audio engine uses (src, play/pause, the position, duration, volume,
 * rate, load), recording every volume it is given. `advance(seconds)` moves vitest's fake clock (its
 * timers, Date and performance) that much and plays as far at the element's rate, reporting
 * `timeupdate` to the engine every quarter second as a browser does; `finish()` reaches the end.
 * Nothing here waits on real time.
 */
import { vi } from 'vitest';
import type { AudioEngine } from '#web/features/player/audio-engine.ts';

type Events = AudioEngine['events'];

export class FakeMediaElement {
  paused = true;
  currentTime = 0;
  duration = Number.NaN;
  playbackRate = 1;
  error: MediaError | null = null;
  readonly volumes: number[] = [];
  /** What play() does: start; refuse, as a browser does without a person's gesture; or never start (a stalled network). */
  playAnswer: 'plays' | 'not-allowed' | 'stalls' = 'plays';
  private source: string | null = null;
  private level = 1;

  constructor(
    private readonly events: Events,
    /** The length of whatever track is loaded, in media seconds. */
    private readonly lengthOf: (src: string) => number,
  ) {}

  get volume(): number {
    return this.level;
  }
  set volume(value: number) {
    if (value < 0 || value > 1) throw new RangeError(`The volume provided (${String(value)}) is outside the range [0, 1].`);
    this.level = value;
    this.volumes.push(value);
  }

  get src(): string {
    return this.source ?? '';
  }
  set src(url: string) {
    this.source = url;
    this.paused = true;
    this.currentTime = 0;
    this.duration = this.lengthOf(url);
  }
  hasAttribute(name: string): boolean {
    return name === 'src' && this.source !== null;
  }
  removeAttribute(name: string): void {
    if (name === 'src') this.source = null;
  }
  load(): void {
    this.duration = Number.NaN;
    this.currentTime = 0;
  }

  play(): Promise<void> {
    if (this.playAnswer === 'not-allowed') return Promise.reject(new DOMException('play() failed because the user did not interact with the document first.', 'NotAllowedError'));
    if (this.playAnswer === 'stalls') return new Promise(() => undefined);
    this.paused = false;
    this.events.playing(this.asElement());
    return Promise.resolve();
  }
  pause(): void {
    if (this.paused) return;
    this.paused = true;
    this.events.pause(this.asElement());
  }

  /** `seconds` of wall time playing, reported every quarter second as timeupdate; stops at the end. */
  advance(seconds: number): void {
    for (let left = seconds; left > 0 && !this.paused; left -= 0.25) {
      vi.advanceTimersByTime(Math.min(0.25, left) * 1000);
      this.currentTime = Math.min(this.duration, this.currentTime + Math.min(0.25, left) * this.playbackRate);
      this.events.timeUpdate(this.asElement());
      if (this.currentTime >= this.duration) {
        this.finish();
        return;
      }
    }
  }
  /** A seek by the person (the slider, the lock screen): the element jumps there. */
  seek(seconds: number): void {
    this.events.seeking(this.asElement());
    this.currentTime = seconds;
    this.events.timeUpdate(this.asElement());
  }
  /** The track's end. */
  finish(): void {
    this.currentTime = this.duration;
    this.paused = true;
    this.events.ended(this.asElement());
  }

  asElement(): HTMLAudioElement {
    return this as unknown as HTMLAudioElement;
  }
}
