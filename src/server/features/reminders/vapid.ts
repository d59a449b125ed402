/**
 * The server's VAPID key pair (RFC 8292), which push services use to know reminders come from us.
 * Derived from the auth secret (decision 0040): on one box that secret is generated on first start
 * and kept in DATA_DIR, so the pair is too; processes sharing a database already share AUTH_SECRET
 * (config.ts requires it), so they send with the same pair without another variable. A browser
 * subscribes to one public key, and a push service refuses messages signed with any other: two
 * processes each generating their own pair would lose half the reminders. Explicit keys win.
 */
import { createECDH, hkdfSync } from 'node:crypto';

export type VapidKeys = { publicKey: string; privateKey: string };

export function vapidKeysFor(authSecret: string, explicit: { publicKey: string | undefined; privateKey: string | undefined }): VapidKeys {
  if (explicit.publicKey && explicit.privateKey) return { publicKey: explicit.publicKey, privateKey: explicit.privateKey };
  const ecdh = createECDH('prime256v1');
  // A P-256 private key is a number below the curve's order: a derived 32 bytes is one but for a
  // chance of about 2^-32, when the next derivation is taken.
  for (let attempt = 0; ; attempt += 1) {
    const candidate = Buffer.from(hkdfSync('sha256', authSecret, 'harbour-mind', `web-push-vapid:${attempt}`, 32));
    try {
      ecdh.setPrivateKey(candidate);
      return { publicKey: ecdh.getPublicKey().toString('base64url'), privateKey: candidate.toString('base64url') };
    } catch {
      // Out of range: derive again.
    }
  }
}

/** Who the push services can contact: the configured subject, else the site when https, else the mail sender. */
export function vapidSubject(subject: string | undefined, publicUrl: string, mailFrom: string): string {
  if (subject) return subject;
  if (publicUrl.startsWith('https://')) return publicUrl;
  const address = /<([^>]+)>/.exec(mailFrom)?.[1] ?? mailFrom.trim();
  return `mailto:${address}`;
}
