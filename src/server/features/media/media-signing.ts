/**
 * Short-lived signed audio URLs: HMAC-SHA256 over key and expiry. Verified without a session or
 * database lookup, so a CDN or any process holding the secret can check them.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

const PLAYBACK_URL_TTL_SECONDS = 15 * 60;

export function createMediaSigner(secret: string, now: () => number = Date.now, defaultTtlSeconds = PLAYBACK_URL_TTL_SECONDS) {
  const key = createHmac('sha256', secret).update('harbour-mind/media-url/v1').digest();
  const mac = (storageKey: string, exp: number) => createHmac('sha256', key).update(`${storageKey}\n${exp}`).digest('base64url');
  return {
    /** A relative URL valid for `ttlSeconds`. */
    sign(storageKey: string, ttlSeconds = defaultTtlSeconds): { url: string; expiresAt: Date } {
      const exp = Math.floor(now() / 1000) + ttlSeconds;
      return { url: `/media/meditations/${encodeURIComponent(storageKey)}?exp=${exp}&sig=${mac(storageKey, exp)}`, expiresAt: new Date(exp * 1000) };
    },
    verify(storageKey: string, exp: string | undefined, sig: string | undefined): 'ok' | 'expired' | 'invalid' {
      if (!exp || !sig || !/^\d{1,12}$/.test(exp)) return 'invalid';
      const expected = Buffer.from(mac(storageKey, Number(exp)));
      const given = Buffer.from(sig);
      if (expected.length !== given.length || !timingSafeEqual(expected, given)) return 'invalid';
      return Number(exp) * 1000 <= now() ? 'expired' : 'ok';
    },
  };
}

export type MediaSigner = ReturnType<typeof createMediaSigner>;
