/**
 * The browser's mirror of the sign-in limit (spec: key prefix rate_limit_, fields count and
 * resetTime, 10 attempts per 5 minutes, counted only after a failure). The server enforces the
 * real limit; this lets the toast say how long to wait without a round trip.
 */
import { readStored, removeStored, writeStored } from '#web/lib/storage.ts';

const RATE_LIMIT_KEY = 'rate_limit_signin';
const MAX_ATTEMPTS = 10;
const WINDOW_MS = 300_000;

type Record = { count: number; resetTime: number };

function read(now: number): Record {
  try {
    const parsed = JSON.parse(readStored(RATE_LIMIT_KEY) ?? 'null') as Record | null;
    if (parsed && typeof parsed.count === 'number' && typeof parsed.resetTime === 'number' && parsed.resetTime > now) return parsed;
  } catch {
    // corrupt: start again
  }
  return { count: 0, resetTime: now + WINDOW_MS };
}

/** Seconds left when the limit is reached, else 0. */
export function secondsBlocked(now = Date.now()): number {
  const record = read(now);
  return record.count >= MAX_ATTEMPTS ? Math.ceil((record.resetTime - now) / 1000) : 0;
}

export function recordFailedSignIn(now = Date.now()): number {
  const record = read(now);
  const next = { count: record.count + 1, resetTime: record.resetTime };
  writeStored(RATE_LIMIT_KEY, JSON.stringify(next));
  if (next.count >= MAX_ATTEMPTS * 0.8) console.warn(`Sign-in attempts: ${next.count} of ${MAX_ATTEMPTS}`);
  return next.count;
}

/** The server said to wait: mirror it so a reload still shows the wait. */
export function recordServerBlock(seconds: number, now = Date.now()): void {
  writeStored(RATE_LIMIT_KEY, JSON.stringify({ count: MAX_ATTEMPTS, resetTime: now + seconds * 1000 }));
}

export function clearSignInLimit(): void {
  removeStored(RATE_LIMIT_KEY);
}
