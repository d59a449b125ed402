/** What the listening journeys read from and do to the global player's <audio> element in Chromium. */
import type { BrowserContext, Page } from 'playwright-core';
import type { SuiteServer } from '#tests/e2e/support/suite.ts';

type AudioState = { src: string; paused: boolean; currentTime: number; duration: number; volume: number; rate: number };

export const audio = (page: Page) =>
  page.evaluate((): AudioState => {
    const el = document.querySelector<HTMLAudioElement>('[data-testid="player-audio"]')!;
    return { src: el.currentSrc || el.getAttribute('src') || '', paused: el.paused, currentTime: el.currentTime, duration: el.duration, volume: el.volume, rate: el.playbackRate };
  });

/**
 * Whether the track on screen plays, past `min` seconds. Its element is the one marked player-audio,
 * but only once the player's own button says Pause: from choosing another track until that track's
 * link arrives, the marked element still holds the previous track, which plays on into the crossfade.
 * Waiting on that element alone, the listening journey once sped up the outgoing track and heard the
 * new one at 1× (no overlay within 15 s). The button follows the current track's element only
 * (audio-engine.ts ignores the other's events), and says Pause only after the mark has moved to it.
 * Runs in the page: it must not use anything from this module.
 */
function playsPast(min: number): boolean {
  const el = document.querySelector<HTMLAudioElement>('[data-testid="player-audio"]');
  const saysPause = document.querySelector('button[aria-label="Pause"]') !== null;
  return Boolean(saysPause && el && !el.paused && el.currentTime > min);
}

/** Whether the track on screen plays past `after` seconds, now. */
export const isPlaying = (page: Page, after = 0) => page.evaluate(playsPast, after);

export const waitForPlaying = (page: Page, after = 0) => page.waitForFunction(playsPast, after, { timeout: 20_000 });

/** Moves the seek slider the way a user's drag does: React hears the input event. */
export async function setSlider(page: Page, percent: number) {
  await page.getByRole('dialog').getByRole('slider', { name: 'Seek' }).evaluate((input: HTMLInputElement, value) => {
    // React tracks the value property: set it through the prototype's setter, as typing does.
    Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')?.set?.call(input, String(value));
    input.dispatchEvent(new Event('input', { bubbles: true }));
  }, percent);
}

export async function practice(server: SuiteServer, context: BrowserContext) {
  const response = await context.request.get(`${server.url}/api/practice?tz=UTC`);
  return (await response.json()) as { totalSessions: number; totalMinutes: number; recent: { title: string | null; complete: boolean; minutes: number | null }[] };
}

/**
 * Plays the rest of the track at `rate` (past the player's own choices: the element plays up to 16×),
 * so an honest listen of a demo track takes a few seconds. The player measures at the element's rate.
 * Acts on the marked element: after choosing a track, call it once waitForPlaying has seen that track play.
 */
export const playFaster = (page: Page, rate: number) =>
  page.evaluate((r) => {
    document.querySelector<HTMLAudioElement>('[data-testid="player-audio"]')!.playbackRate = r;
  }, rate);
