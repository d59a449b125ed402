import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { clearSignInLimit, recordFailedSignIn, recordServerBlock, secondsBlocked } from '#web/features/auth/sign-in-rate-limit.ts';

class MemoryStorage {
  map = new Map<string, string>();
  getItem = (k: string) => this.map.get(k) ?? null;
  setItem = (k: string, v: string) => void this.map.set(k, v);
  removeItem = (k: string) => void this.map.delete(k);
}

let s: MemoryStorage;
beforeEach(() => {
  s = new MemoryStorage();
  vi.stubGlobal('localStorage', s);
});
afterEach(() => {
  vi.unstubAllGlobals();
});

describe('browser sign-in limit mirror', () => {
  it('blocks after 10 failures for the rest of the 5-minute window', () => {
    const t0 = 1_000_000;
    for (let i = 0; i < 9; i += 1) recordFailedSignIn(t0);
    expect(secondsBlocked(t0)).toBe(0);
    recordFailedSignIn(t0);
    expect(secondsBlocked(t0 + 60_000)).toBe(240);
    expect(secondsBlocked(t0 + 300_000)).toBe(0);
  });

  it('mirrors a server block and clears on success; corrupt storage is ignored', () => {
    recordServerBlock(42, 0);
    expect(secondsBlocked(0)).toBe(42);
    clearSignInLimit();
    expect(secondsBlocked(0)).toBe(0);
    s.setItem('rate_limit_signin', '{oops');
    expect(secondsBlocked(0)).toBe(0);
  });

  it('never throws when the browser blocks storage (the server still enforces the limit)', () => {
    const refuse = () => {
      throw new Error('SecurityError');
    };
    vi.stubGlobal('localStorage', { getItem: refuse, setItem: refuse, removeItem: refuse });
    expect(() => recordFailedSignIn(0)).not.toThrow();
    expect(() => recordServerBlock(42, 0)).not.toThrow();
    expect(() => clearSignInLimit()).not.toThrow();
    expect(secondsBlocked(0)).toBe(0);
  });
});
