/**
 * Background sound under a meditation in Chromium against the real server (issue 37, item 3). What
 * the page asks of Web Audio is watched, not replaced: the real AudioContext mixes the real voice
 * and bed, and a spy notes each looping source the page starts and stops, and each element it routes
 * into the graph. Only the sleep timer's journey lets time pass, on a page clock installed before
 * the page loads and never paused.
 */
import type { BrowserContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { SOUNDSCAPE } from '#shared/soundscapes.ts';
import { axeFindings } from '#tests/e2e/support/axe.ts';
import { openPage } from '#tests/e2e/support/browser.ts';
import { audio, waitForPlaying } from '#tests/e2e/support/player.ts';
import { signedInSubscriber } from '#tests/e2e/support/people.ts';
import { useSharedSuite } from '#tests/e2e/support/suite.ts';

const { server, browser } = await useSharedSuite();

type Bed = { duration: number | null; loop: boolean; stopped: boolean };
type Watched = { beds: Bed[]; routed: number; context: BaseAudioContext | null; analysers: AnalyserNode[] };

/** Notes every looping buffer source (a bed) the page starts and stops, and every element it routes into Web Audio. */
async function watchWebAudio(context: BrowserContext) {
  await context.addInitScript(() => {
    const w = window as unknown as { __audio: Watched };
    w.__audio = { beds: [], routed: 0, context: null, analysers: [] };
    const notes = new WeakMap<AudioBufferSourceNode, Bed>();
    const proto = AudioBufferSourceNode.prototype as { start: (...args: unknown[]) => void; stop: (...args: unknown[]) => void };
    const { start, stop } = proto;
    proto.start = function (this: AudioBufferSourceNode, ...args: unknown[]) {
      if (this.loop) {
        const note: Bed = { duration: this.buffer?.duration ?? null, loop: this.loop, stopped: false };
        notes.set(this, note);
        w.__audio.beds.push(note);
        w.__audio.context = this.context;
      }
      start.apply(this, args);
    };
    proto.stop = function (this: AudioBufferSourceNode, ...args: unknown[]) {
      const note = notes.get(this);
      if (note) note.stopped = true;
      stop.apply(this, args);
    };
    const context = AudioContext.prototype as { createMediaElementSource: (this: AudioContext, element: HTMLMediaElement) => MediaElementAudioSourceNode; createAnalyser: (this: AudioContext) => AnalyserNode };
    const { createMediaElementSource, createAnalyser } = context;
    context.createAnalyser = function (this: AudioContext) {
      const analyser = createAnalyser.call(this);
      w.__audio.analysers.push(analyser);
      return analyser;
    };
    context.createMediaElementSource = function (this: AudioContext, element: HTMLMediaElement) {
      w.__audio.routed += 1;
      return createMediaElementSource.call(this, element);
    };
  });
}

/**
 * The loudest sample the page's analyser (on the voice's bus) hears now: above zero only if the voice
 * really flows through the graph (a routed element the graph could not read would give silence).
 */
const voicePeak = (page: Page) =>
  page.evaluate(() => {
    const [analyser] = (window as unknown as { __audio: Watched }).__audio.analysers;
    const samples = new Float32Array(analyser.fftSize);
    analyser.getFloatTimeDomainData(samples);
    return Math.max(...samples.map(Math.abs));
  });

const watched = (page: Page) =>
  page.evaluate(() => {
    const { beds, routed, context } = (window as unknown as { __audio: Watched }).__audio;
    return { beds, routed, state: context?.state ?? null, playing: beds.filter((bed) => !bed.stopped) };
  });

async function playSlowTide(page: Page) {
  await page.goto(`${server.url}/meditations/sleeping`);
  const card = page.getByTestId('meditation-card').filter({ hasText: 'The Slow Tide' });
  await card.getByRole('button', { name: 'The Slow Tide', exact: true }).click();
  const sheet = page.getByRole('dialog', { name: 'The Slow Tide' });
  await sheet.waitFor();
  await waitForPlaying(page, 0.3);
  return sheet;
}

describe('background sound', () => {
  it('mixes a chosen bed under the voice, pauses it with the voice, keeps the choice after a reload and stops it on close', async () => {
    const { page, context, problems } = await openPage(browser);
    await watchWebAudio(context);
    await signedInSubscriber(server, context, { name: 'Rhea Lake', password: 'quiet-harbour-37' });
    let sheet = await playSlowTide(page);

    // The choices, as a radio group named by its heading; None until one is chosen, and no Web Audio for it.
    const group = sheet.getByRole('radiogroup', { name: 'Background sound' });
    // The picker is a chunk of its own, fetched as the sheet opens: evaluateAll does not wait for it.
    await group.getByRole('radio', { name: 'Brown noise' }).waitFor();
    const names = await group.getByRole('radio').evaluateAll((radios) => radios.map((radio) => radio.parentElement!.textContent.trim()));
    expect(names).toEqual(['None', 'Rain', 'Ocean', 'Forest', 'Brown noise']);
    expect(await group.getByRole('radio', { name: 'None' }).isChecked()).toBe(true);
    expect(await sheet.getByRole('slider', { name: 'Background volume' }).isDisabled()).toBe(true);
    expect((await watched(page)).routed).toBe(0);

    expect(await axeFindings(page, 'player sheet with background sound')).toEqual([]);

    // Chosen with the keyboard: from None, the arrow key moves to Rain (and does not seek the track).
    await page.evaluate(() => {
      const w = window as unknown as { __seeks: number };
      w.__seeks = 0;
      document.querySelector('[data-testid="player-audio"]')!.addEventListener('seeking', () => (w.__seeks += 1));
    });
    const before = (await audio(page)).currentTime;
    await group.getByRole('radio', { name: 'None' }).focus();
    await page.keyboard.press('ArrowRight');
    expect(await group.getByRole('radio', { name: 'Rain' }).isChecked()).toBe(true);
    expect(await page.evaluate(() => (window as unknown as { __seeks: number }).__seeks)).toBe(0);

    // The bed: one looping one-minute buffer on a running context, with both voice elements routed into the same graph.
    const section = page.locator('section[data-bed-state]');
    await page.locator('section[data-bed-state="playing"]').waitFor();
    let state = await watched(page);
    expect(state.state).toBe('running');
    expect(state.routed).toBe(2);
    expect(state.playing).toHaveLength(1);
    expect(state.playing[0].duration).toBeGreaterThan(59);
    // The voice goes on, heard through the graph.
    await waitForPlaying(page, before + 0.5);
    await expect.poll(() => voicePeak(page)).toBeGreaterThan(0.001);
    // The engine's fades (and the sleep timer's) set the element's volume: it still reaches the voice inside the graph.
    const setVolume = (volume: number) =>
      page.evaluate((v) => {
        document.querySelector<HTMLAudioElement>('[data-testid="player-audio"]')!.volume = v;
      }, volume);
    await setVolume(0);
    await expect.poll(() => voicePeak(page)).toBe(0);
    await setVolume(1);
    await expect.poll(() => voicePeak(page)).toBeGreaterThan(0.001);

    // Its own volume, kept on the device with the choice.
    const volume = sheet.getByRole('slider', { name: 'Background volume' });
    await volume.focus();
    await page.keyboard.press('ArrowLeft');
    await expect.poll(() => page.evaluate((key) => localStorage.getItem(key), SOUNDSCAPE.storageKey)).toBe(JSON.stringify({ choice: 'rain', volume: SOUNDSCAPE.defaultVolume - 0.05 }));

    // Pause pauses both; Play brings both back.
    await sheet.getByRole('button', { name: 'Pause', exact: true }).click();
    await page.locator('section[data-bed-state="paused"]').waitFor();
    expect((await watched(page)).playing).toHaveLength(0);
    await sheet.getByRole('button', { name: 'Play', exact: true }).click();
    await page.locator('section[data-bed-state="playing"]').waitFor();
    expect((await watched(page)).playing).toHaveLength(1);

    // Remembered after a reload: the next play has rain under it at once.
    await page.reload();
    sheet = await playSlowTide(page);
    expect(await sheet.getByRole('radio', { name: 'Rain' }).isChecked()).toBe(true);
    expect(await sheet.getByRole('slider', { name: 'Background volume' }).inputValue()).toBe(String(Math.round((SOUNDSCAPE.defaultVolume - 0.05) * 100)));
    await section.and(page.locator('[data-bed-state="playing"]')).waitFor();
    state = await watched(page);
    expect(state.playing).toHaveLength(1);
    expect(state.routed).toBe(2);

    // Closing the player stops the bed.
    await sheet.getByRole('button', { name: 'Close player' }).click();
    await sheet.waitFor({ state: 'detached' });
    await expect.poll(async () => (await watched(page)).playing.length).toBe(0);
    expect((await watched(page)).beds).toHaveLength(1);

    expect(problems).toEqual([]);
    await context.close();
  });

  it('keeps a chosen bed in the service worker’s cache, so it is there offline', async () => {
    const { page, context, problems } = await openPage(browser, { serviceWorkers: 'allow' });
    await signedInSubscriber(server, context, { name: 'Oona Fell', password: 'quiet-harbour-39' });
    await page.goto(`${server.url}/meditations/sleeping`);
    await page.evaluate(() => navigator.serviceWorker.ready);
    await page.waitForFunction(() => Boolean(navigator.serviceWorker.controller), undefined, { timeout: 15_000 });
    const sheet = await playSlowTide(page);
    await sheet.getByRole('radio', { name: 'Forest' }).check();
    await page.locator('section[data-bed-state="playing"]').waitFor();
    await expect.poll(() => page.evaluate(async () => Boolean(await caches.match('/sounds/beds/forest.mp3')))).toBe(true);

    await context.setOffline(true);
    const offline = await page.evaluate(async () => {
      const response = await fetch('/sounds/beds/forest.mp3');
      return { ok: response.ok, bytes: (await response.arrayBuffer()).byteLength };
    });
    expect(offline.ok).toBe(true);
    expect(offline.bytes).toBeGreaterThan(100_000);
    await context.setOffline(false);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('fades the bed out with the voice when the sleep timer runs out', async () => {
    const { page, context, problems } = await openPage(browser);
    await watchWebAudio(context);
    await signedInSubscriber(server, context, { name: 'Ines Brook', password: 'quiet-harbour-38' });
    await page.clock.install();
    const sheet = await playSlowTide(page);
    await sheet.getByRole('radio', { name: 'Ocean' }).check();
    await page.locator('section[data-bed-state="playing"]').waitFor();

    await sheet.getByLabel('Sleep timer').selectOption('5');
    await sheet.getByRole('option', { name: 'Pausing in 5 min' }).waitFor({ state: 'attached' });
    // Jumped, as a closed laptop lid does (each timer fires at most once): the ducking's 50 ms reads would otherwise run 6 000 times.
    await page.clock.fastForward(4 * 60_000);
    expect((await watched(page)).playing).toHaveLength(1);
    await page.clock.fastForward(60_000 + 1_000);
    await expect.poll(async () => (await audio(page)).paused).toBe(true);
    await page.locator('section[data-bed-state="paused"]').waitFor();
    expect((await watched(page)).playing).toHaveLength(0);
    expect(problems).toEqual([]);
    await context.close();
  });
});
