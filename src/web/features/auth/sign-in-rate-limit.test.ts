import { describe, expect, it } from 'vitest';
import { clearSignInLimit, recordFailedSignIn, recordServerBlock, secondsBlocked } from '#web/features/auth/sign-in-rate-limit.ts';

class MemoryStorage {
  map = new Map<string, string>();
  getItem = (k: string) => this.map.get(k) ?? null;
  setItem = (k: string, v: string) => void this.map.set(k, v);
  removeItem = (k: string) => void this.map.delete(k);
}

describe('browser sign-in limit mirror', () => {
  it('blocks after 10 failures for the rest of the 5-minute window', () => {
    const s = new MemoryStorage() as unknown as Storage;
    const t0 = 1_000_000;
    for (let i = 0; i < 9; i += 1) recordFailedSignIn(s, t0);
    expect(secondsBlocked(s, t0)).toBe(0);
    recordFailedSignIn(s, t0);
    expect(secondsBlocked(s, t0 + 60_000)).toBe(240);
    expect(secondsBlocked(s, t0 + 300_000)).toBe(0);
  });

  it('mirrors a server block and clears on success; corrupt storage is ignored', () => {
    const s = new MemoryStorage() as unknown as Storage;
    recordServerBlock(s, 42, 0);
    expect(secondsBlocked(s, 0)).toBe(42);
    clearSignInLimit(s);
    expect(secondsBlocked(s, 0)).toBe(0);
    s.setItem('rate_limit_signin', '{oops');
    expect(secondsBlocked(s, 0)).toBe(0);
  });
});
