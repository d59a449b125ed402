import { createECDH } from 'node:crypto';

/**
 * Where a reminder may be sent. A subscription's endpoint comes from the browser, so from the client:
 * trusted as-is, anybody could make the server post to an address of their choosing (an internal
 * service, another site). Only the browsers' push services are accepted, plus origins the operator adds.
 */
const BROWSER_PUSH_HOSTS = [
  /^fcm\.googleapis\.com$/, // Chrome, Edge on Android, Samsung Internet, Opera
  /^android\.googleapis\.com$/,
  /^updates\.push\.services\.mozilla\.com$/, // Firefox
  /^push\.services\.mozilla\.com$/,
  /^web\.push\.apple\.com$/, // Safari, iOS home-screen apps
  /^[a-z0-9-]+\.notify\.windows\.com$/, // Edge on Windows
];

export function isAllowedPushEndpoint(endpoint: string, extraOrigins: readonly string[]): boolean {
  if (!URL.canParse(endpoint)) return false;
  const url = new URL(endpoint);
  if (url.username || url.password) return false;
  if (extraOrigins.includes(url.origin)) return true;
  return url.protocol === 'https:' && url.port === '' && BROWSER_PUSH_HOSTS.some((host) => host.test(url.hostname));
}

/**
 * Whether a subscription's key is a point on P-256 a reminder can be encrypted for (RFC 8291): the
 * contract checks its length only, and a key of the right length off the curve made web-push throw
 * at send time, every day.
 */
export function isEncryptableKey(p256dh: string): boolean {
  try {
    const ecdh = createECDH('prime256v1');
    ecdh.generateKeys();
    ecdh.computeSecret(Buffer.from(p256dh, 'base64url'));
    return true;
  } catch {
    return false;
  }
}
