/**
 * The system share sheet behind @capacitor/share's native half, for a fake shell in Chromium
 * (native-shell.e2e.ts's `fakeShell`, then tests/e2e/support/native-device.ts's `fakeDevicePlugins`
 * for the files, then this, each as an init script). `share` answers as the devices do: with the
 * chosen activity once the person picks somewhere (`window.chooseInShareSheet`, e.g. iOS's Save to
 * Files), or rejecting 'Share canceled' when they close the sheet (iOS's `completed == false`,
 * Android's RESULT_CANCELED), or with the plugin's own refusal (`error:<its words>`). What was
 * offered is kept, with the file's text as the device's file system held it when the sheet opened.
 */
import type { Page } from 'playwright-core';

type CapacitorFake = {
  PluginHeaders: { name: string; methods: { name: string; rtype: string }[] }[];
  nativePromise: (plugin: string, method: string, options?: Record<string, unknown>) => Promise<unknown>;
};

export type SharedFile = { title: string; files: string[]; texts: (string | null)[]; answer: string };

export function fakeShareSheet() {
  const cap = (window as unknown as { Capacitor: CapacitorFake }).Capacitor;
  const deviceFiles = () => (window as unknown as { deviceFiles: () => Record<string, string> }).deviceFiles();
  cap.PluginHeaders.push({ name: 'Share', methods: ['canShare', 'share'].map((name) => ({ name, rtype: 'promise' })) });
  // What the person does with the next sheets, in order ('close', or the activity they pick); then Save to Files.
  const choices: string[] = [];
  const shown: SharedFile[] = [];
  const nativePromise = cap.nativePromise;
  cap.nativePromise = (plugin, method, options = {}) => {
    if (plugin !== 'Share') return nativePromise(plugin, method, options);
    if (method === 'canShare') return Promise.resolve({ value: true });
    const files = (options.files as string[] | undefined) ?? [];
    if (files.length === 0 && !options.url && !options.text) return Promise.reject(new Error('Must provide at least url, text or files'));
    // The file as the sheet would hand it on: read from the device's files (the fake file system keeps `DIRECTORY/path`).
    const texts = files.map((uri) => deviceFiles()[uri.replace('file:///device/', '')] ?? null);
    const answer = choices.shift() ?? 'com.apple.DocumentManagerUICore.SaveToFiles';
    shown.push({ title: typeof options.title === 'string' ? options.title : '', files, texts, answer });
    if (answer === 'close') return Promise.reject(new Error('Share canceled'));
    return answer.startsWith('error:') ? Promise.reject(new Error(answer.slice('error:'.length))) : Promise.resolve({ activityType: answer });
  };
  Object.assign(window, {
    chooseInShareSheet: (...next: string[]) => choices.push(...next),
    shareSheet: () => shown,
  });
}

/** What the share sheets offered so far. */
export const shareSheet = (page: Page) => page.evaluate(() => (window as unknown as { shareSheet: () => SharedFile[] }).shareSheet());
/** What the person will do with the next sheets: 'close' (no choice), the activity they pick, or `error:<words>` (the plugin refuses). */
export const chooseInShareSheet = (page: Page, ...choices: string[]) => page.evaluate((c) => (window as unknown as { chooseInShareSheet: (...c: string[]) => void }).chooseInShareSheet(...c), choices);
