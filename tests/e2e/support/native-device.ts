/**
 * The device behind two more plugins, for a fake shell (native-shell.e2e.ts's `fakeShell`, added
 * first): @capacitor/filesystem's native methods over an in-memory file tree (base64 strings, as the
 * native side answers), and @capgo/capacitor-media-session's, recording what the app tells the lock
 * screen and keeping its action callbacks so a test can press the notification's buttons.
 * `convertFileSrc` is Capacitor's (the native side installs it): a file's WebView URL, which
 * `serveDeviceFiles` answers from the fake tree, as the WebView's own file handler does.
 */
import type { Page } from 'playwright-core';

type CapacitorFake = {
  PluginHeaders: { name: string; methods: { name: string; rtype: string }[] }[];
  nativePromise: (plugin: string, method: string, options?: Record<string, unknown>) => Promise<unknown>;
  nativeCallback: (plugin: string, method: string, options: Record<string, unknown>, callback: (data: unknown) => void) => string;
  convertFileSrc?: (uri: string) => string;
};

export function fakeDevicePlugins() {
  const cap = (window as unknown as { Capacitor: CapacitorFake }).Capacitor;
  const files = new Map<string, string>();
  const lockScreen: { method: string; options: Record<string, unknown> }[] = [];
  const actions = new Map<string, (data: unknown) => void>();
  const promise = (name: string) => ({ name, rtype: 'promise' });
  cap.PluginHeaders.push(
    { name: 'Filesystem', methods: ['writeFile', 'readFile', 'deleteFile', 'rmdir', 'getUri', 'mkdir', 'readdir', 'stat'].map(promise) },
    { name: 'MediaSession', methods: [...['setMetadata', 'setPlaybackState', 'setPositionState', 'getPluginVersion'].map(promise), { name: 'setActionHandler', rtype: 'callback' }] },
  );
  const path = (options: Record<string, unknown>) => `${String(options.directory)}/${String(options.path)}`;
  const missing = () => Promise.reject(new Error('File does not exist'));
  const filesystem: Partial<Record<string, (options: Record<string, unknown>) => Promise<unknown>>> = {
    writeFile: (options) => {
      files.set(path(options), String(options.data));
      return Promise.resolve({ uri: `file:///device/${path(options)}` });
    },
    readFile: (options) => (files.has(path(options)) ? Promise.resolve({ data: files.get(path(options)) }) : missing()),
    deleteFile: (options) => (files.delete(path(options)) ? Promise.resolve() : missing()),
    rmdir: (options) => {
      const inside = [...files.keys()].filter((key) => key.startsWith(`${path(options)}/`));
      if (inside.length === 0) return missing();
      inside.forEach((key) => files.delete(key));
      return Promise.resolve();
    },
  };
  const nativePromise = cap.nativePromise;
  const nativeCallback = cap.nativeCallback;
  cap.nativePromise = (plugin, method, options = {}) => {
    if (plugin === 'Filesystem') return filesystem[method]?.(options) ?? Promise.reject(new Error(`Filesystem.${method} is not faked`));
    if (plugin === 'MediaSession') {
      lockScreen.push({ method, options });
      return Promise.resolve();
    }
    return nativePromise(plugin, method, options);
  };
  cap.nativeCallback = (plugin, method, options, callback) => {
    if (plugin !== 'MediaSession') return nativeCallback(plugin, method, options, callback);
    actions.set(String(options.action), callback);
    return String(actions.size);
  };
  cap.convertFileSrc = (uri) => `${location.origin}/_capacitor_file_${uri.replace('file://', '')}`;
  Object.assign(window, {
    deviceFiles: () => Object.fromEntries(files),
    lockScreen: () => lockScreen,
    pressLockScreen: (action: string) => actions.get(action)?.({ action }),
  });
}

/** Answers the WebView's file URLs (`convertFileSrc`) from the fake device's files. */
export async function serveDeviceFiles(page: Page, contentType = 'audio/mpeg'): Promise<void> {
  await page.route('**/_capacitor_file_/device/**', async (route) => {
    const key = decodeURIComponent(new URL(route.request().url()).pathname.replace('/_capacitor_file_/device/', ''));
    const base64 = await page.evaluate((k) => (window as unknown as { deviceFiles: () => Partial<Record<string, string>> }).deviceFiles()[k], key);
    if (base64 === undefined) return route.fulfill({ status: 404 });
    return route.fulfill({ status: 200, contentType, body: Buffer.from(base64, 'base64') });
  });
}

export const deviceFiles = (page: Page) => page.evaluate(() => (window as unknown as { deviceFiles: () => Record<string, string> }).deviceFiles());
export const lockScreen = (page: Page) => page.evaluate(() => (window as unknown as { lockScreen: () => { method: string; options: Record<string, unknown> }[] }).lockScreen());
export const pressLockScreen = (page: Page, action: string) => page.evaluate((a) => (window as unknown as { pressLockScreen: (a: string) => void }).pressLockScreen(a), action);
