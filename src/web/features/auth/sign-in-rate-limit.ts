/**
 * The browser's mirror of the sign-in limit (spec: key prefix rate_limit_, fields count and
 * resetTime, 10 attempts per 5 minutes, counted only after a failure). The server enforces the
 * real limit; this lets the toast say how long to wait without a round trip.
 */
const RATE_LIMIT_KEY = 'rate_limit_signin';
const MAX_ATTEMPTS = 10;
const WINDOW_MS = 300_000;

type Record = { count: number; resetTime: number };

function read(storage: Storage, now: number): Record {
  try {
    const parsed = JSON.parse(storage.getItem(RATE_LIMIT_KEY) ?? 'null') as Record | null;
    if (parsed && typeof parsed.count === 'number' && typeof parsed.resetTime === 'number' && parsed.resetTime > now) return parsed;
  } catch {
    // corrupt: start again
  }
  return { count: 0, resetTime: now + WINDOW_MS };
}

/** Seconds left when the limit is reached, else 0. */
export function secondsBlocked(storage: Storage, now = Date.now()): number {
  const record = read(storage, now);
  return record.count >= MAX_ATTEMPTS ? Math.ceil((record.resetTime - now) / 1000) : 0;
}

export function recordFailedSignIn(storage: Storage, now = Date.now()): number {
  const record = read(storage, now);
  const next = { count: record.count + 1, resetTime: record.resetTime };
  storage.setItem(RATE_LIMIT_KEY, JSON.stringify(next));
  if (next.count >= MAX_ATTEMPTS * 0.8) console.warn(`Sign-in attempts: ${next.count} of ${MAX_ATTEMPTS}`);
  return next.count;
}

/** The server said to wait: mirror it so a reload still shows the wait. */
export function recordServerBlock(storage: Storage, seconds: number, now = Date.now()): void {
  storage.setItem(RATE_LIMIT_KEY, JSON.stringify({ count: MAX_ATTEMPTS, resetTime: now + seconds * 1000 }));
}

export function clearSignInLimit(storage: Storage): void {
  storage.removeItem(RATE_LIMIT_KEY);
}
