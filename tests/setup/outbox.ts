/** Reads the .eml files the app wrote to DATA_DIR/outbox (the default mail transport). */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { vi } from 'vitest';

export type OutboxMail = { file: string; to: string; subject: string; raw: string; links: string[] };

/**
 * Undo quoted-printable soft breaks and escapes (runs of escaped bytes are UTF-8) so text and links
 * can be read from the raw message. Only after the message's own headers, which are never encoded
 * so: a header's `token=5F…` would otherwise lose its `=5F` to an underscore (it failed a run, for
 * the one token in eight that starts with two hex digits).
 */
function decodeQuotedPrintable(raw: string): string {
  const headerEnd = raw.search(/\r?\n\r?\n/);
  const [headers, body] = headerEnd < 0 ? ['', raw] : [raw.slice(0, headerEnd), raw.slice(headerEnd)];
  return headers + body.replace(/=\r?\n/g, '').replace(/(?:=[0-9A-F]{2})+/g, (run) => Buffer.from(run.slice(1).split('=').map((hex) => parseInt(hex, 16))).toString('utf8'));
}

export function readOutbox(dataDir: string): OutboxMail[] {
  const dir = join(dataDir, 'outbox');
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.endsWith('.eml'))
    .sort()
    .map((file) => {
      const raw = decodeQuotedPrintable(readFileSync(join(dir, file), 'utf8'));
      return {
        file,
        raw,
        to: /^To: (.*)$/m.exec(raw)?.[1]?.trim() ?? '',
        subject: /^Subject: (.*)$/m.exec(raw)?.[1]?.trim() ?? '',
        links: [...new Set(raw.match(/https?:\/\/[^\s"<>]+/g) ?? [])],
      };
    });
}

/** Waits for a mail to `to` whose subject matches (mail may be sent after the response). */
export function waitForMail(dataDir: string, to: string, subject: RegExp, timeoutMs = 5000): Promise<OutboxMail> {
  return vi.waitFor(
    () => {
      const mail = readOutbox(dataDir).filter((m) => m.to.includes(to) && subject.test(m.subject)).pop();
      if (!mail) throw new Error(`No mail to ${to} matching ${subject}`);
      return mail;
    },
    { timeout: timeoutMs, interval: 50 },
  );
}
