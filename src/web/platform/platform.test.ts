/**
 * The platform layer (issue 19, item 2): which shell the app is in, decided as Capacitor decides it,
 * and the native Platform's opened links, driven through a local fake of @capacitor/app's `App`
 * plugin (its `addListener('appUrlOpen', …)` and `{ remove }` handle, as the plugin defines them).
 */
import { describe, expect, it, vi } from 'vitest';
import { memoryStorage } from '#tests/fakes/secure-storage.ts';
import { detectPlatformKind } from '#web/platform/detect.ts';
import { createNativePlatform, openedPath, type AppPluginLike } from '#web/platform/native-platform.ts';

/** The plugins these tests do not use (native-offline-files.test.ts and native-media-controls.test.ts drive them). */
const unused = () => Promise.reject(new Error('unused'));
const noFiles = { loadFilesystem: unused, loadConvertFileSrc: unused, loadMediaSession: unused, loadLocalNotifications: unused, loadHealth: unused, loadHaptics: unused };

describe('detectPlatformKind', () => {
  it('reads the shell the way @capacitor/core does', () => {
    expect(detectPlatformKind(undefined)).toBe('web');
    expect(detectPlatformKind({})).toBe('web');
    expect(detectPlatformKind({ webkit: { messageHandlers: {} } })).toBe('web');
    expect(detectPlatformKind({ webkit: { messageHandlers: { bridge: {} } } })).toBe('ios');
    expect(detectPlatformKind({ androidBridge: {} })).toBe('android');
    expect(detectPlatformKind({ CapacitorCustomPlatform: { name: 'android' }, webkit: { messageHandlers: { bridge: {} } } })).toBe('android');
    expect(detectPlatformKind({ CapacitorCustomPlatform: { name: 'electron' } })).toBe('web');
  });
});

describe('links opened in the apps', () => {
  it('takes only the app’s own https paths, with their query', () => {
    const paths = ['/verify-email', '/reset-password'];
    expect(openedPath('https://harbourmind.app/verify-email?token=abc', paths)).toBe('/verify-email?token=abc');
    expect(openedPath('https://harbourmind.app/reset-password?token=x%20y', paths)).toBe('/reset-password?token=x%20y');
    for (const url of ['https://harbourmind.app/admin', 'http://harbourmind.app/verify-email', 'javascript:alert(1)', 'not a url', 'https://harbourmind.app/verify-email/../admin']) {
      expect(openedPath(url, paths), url).toBeNull();
    }
  });

  it('hands each opened link to the listener until it unsubscribes, and removes the plugin listener', async () => {
    let fire: ((event: { url: string }) => void) | undefined;
    const remove = vi.fn(() => Promise.resolve());
    const app: AppPluginLike = {
      addListener: vi.fn((_event: 'appUrlOpen', listener: (event: { url: string }) => void) => {
        fire = listener;
        return Promise.resolve({ remove });
      }),
    };
    const platform = createNativePlatform('ios', { loadApp: () => Promise.resolve(app), loadStorage: () => Promise.resolve(memoryStorage()), server: 'https://api.example', ...noFiles });
    expect(platform).toMatchObject({ kind: 'ios', native: true });
    const opened: string[] = [];
    const stop = platform.onOpenedLink((path) => opened.push(path));
    await vi.waitFor(() => expect(fire).toBeDefined(), { timeout: 10_000 });
    fire!({ url: 'https://harbourmind.app/verify-email?token=t1' });
    fire!({ url: 'https://harbourmind.app/account' });
    expect(opened).toEqual(['/verify-email?token=t1']);
    stop();
    fire!({ url: 'https://harbourmind.app/reset-password?token=t2' });
    expect(opened).toEqual(['/verify-email?token=t1']);
    expect(remove).toHaveBeenCalledOnce();
  });
});

describe('the API from inside the apps', () => {
  it('names the configured server, asks for bearer sessions, keeps a sign-in’s token in secure storage and forgets it', async () => {
    const storage = memoryStorage();
    const platform = createNativePlatform('android', { loadApp: () => Promise.reject(new Error('unused')), loadStorage: () => Promise.resolve(storage), server: 'https://api.example', ...noFiles });
    expect(platform.apiUrl('/api/me')).toBe('https://api.example/api/me');
    expect(platform.apiUrl('https://elsewhere.example/x')).toBe('https://elsewhere.example/x');
    expect(await platform.sessionHeaders()).toEqual({ 'x-session-transport': 'bearer' });
    await platform.noteResponse(new Response('{}', { headers: { 'set-auth-token': 'token-123' } }));
    expect([...storage.values.values()]).toEqual(['token-123']);
    expect(await platform.sessionHeaders()).toEqual({ 'x-session-transport': 'bearer', authorization: 'Bearer token-123' });
    // An answer without a token leaves the kept one alone.
    await platform.noteResponse(new Response('{}'));
    expect((await platform.sessionHeaders()).authorization).toBe('Bearer token-123');
    await platform.forgetSession();
    expect(await platform.sessionHeaders()).toEqual({ 'x-session-transport': 'bearer' });
  });
});

describe('later', () => {
  it('forwards named methods once the real object loads, and is never mistaken for a promise or a primitive', async () => {
    const { later } = await import('#web/platform/platform.ts');
    // Forwarded methods answer later, so later() is for objects whose methods return promises (or nothing).
    const forwarded = later(() => Promise.resolve({ greet: (name: string) => Promise.resolve(`hello ${name}`) }));
    expect(await forwarded.greet('ada')).toBe('hello ada');
    // A promise resolved to it keeps it as it is (it has no `then` to follow).
    expect(await new Promise((resolve) => resolve(forwarded))).toBe(forwarded);
    expect((forwarded as unknown as Record<symbol, unknown>)[Symbol.toPrimitive]).toBeUndefined();
  });
});
