// @vitest-environment jsdom
/**
 * Sign in with Apple on Android, the app's half (decision 0071): the proof key it starts with, the
 * system browser opened through @capacitor/browser's own JavaScript (as it crosses the bridge), and
 * the verifier kept until the return link, once.
 */
import { createHash } from 'node:crypto';
import type { BrowserPlugin } from '@capacitor/browser';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { STORAGE_KEYS } from '#shared/constants.ts';
import { newProofKey, startAppleInBrowser, takeAppleVerifier } from '#web/platform/apple-in-browser.ts';
import { fakeCapacitorBridge } from '#tests/fakes/capacitor-bridge.ts';

afterEach(() => {
  localStorage.clear();
  vi.unstubAllGlobals();
});

describe('the proof key', () => {
  it('is a 43-character verifier and its S256 challenge (RFC 7636), new every time', async () => {
    const first = await newProofKey();
    const second = await newProofKey();
    expect(first.verifier).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(first.challenge).toBe(createHash('sha256').update(first.verifier).digest('base64url'));
    expect(second.verifier).not.toBe(first.verifier);
  });
});

describe('starting in the system browser', () => {
  it('opens the server’s start with the challenge in a Custom Tab, and keeps the verifier for the return link, once', async () => {
    const opened: Record<string, unknown>[] = [];
    const bridge = fakeCapacitorBridge('android', { Browser: { open: (options) => Promise.resolve(void opened.push(options)), close: () => Promise.resolve() } });
    const { Browser } = bridge.plugin('@capacitor/browser') as { Browser: BrowserPlugin };
    await startAppleInBrowser((path) => `https://api.example${path}`, () => Promise.resolve({ open: (options) => Browser.open(options) }));

    expect(bridge.calls.map((c) => `${c.plugin}.${c.method}`)).toEqual(['Browser.open']);
    const url = new URL(String(opened[0].url));
    expect(`${url.origin}${url.pathname}`).toBe('https://api.example/api/native/apple/start');
    const verifier = takeAppleVerifier();
    expect(url.searchParams.get('challenge')).toBe(createHash('sha256').update(String(verifier)).digest('base64url'));
    // Taken off the device as it is read.
    expect(localStorage.getItem(STORAGE_KEYS.appleSignInVerifier)).toBeNull();
    expect(takeAppleVerifier()).toBeNull();
  });

  it('keeps no verifier past a quarter of an hour, nor one it cannot read', async () => {
    await startAppleInBrowser((path) => path, () => Promise.resolve({ open: () => Promise.resolve() }));
    expect(takeAppleVerifier(Date.now() + 15 * 60_000 + 1)).toBeNull();
    localStorage.setItem(STORAGE_KEYS.appleSignInVerifier, '{not json');
    expect(takeAppleVerifier()).toBeNull();
  });

  it('a Custom Tab that cannot open fails the start (the button says so), and a later start replaces the verifier', async () => {
    await expect(startAppleInBrowser((path) => path, () => Promise.reject(new Error('no browser')))).rejects.toThrow('no browser');
    await startAppleInBrowser((path) => path, () => Promise.resolve({ open: () => Promise.resolve() }));
    expect(takeAppleVerifier()).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });
});
