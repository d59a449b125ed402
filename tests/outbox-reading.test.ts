/** The outbox reader the mail tests share (tests/setup/outbox.ts) decodes bodies, never headers. */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { readOutbox } from '#tests/setup/outbox.ts';

it('keeps a header’s token as sent and decodes the quoted-printable body', () => {
  const dir = mkdtempSync(join(tmpdir(), 'hm-outbox-'));
  try {
    mkdirSync(join(dir, 'outbox'));
    // A token that begins with two hex digits: '=5F' in a header is not an escape.
    writeFileSync(join(dir, 'outbox', 'a.eml'), 'List-Unsubscribe: <http://x/one-click?token=5FN2w>\r\nTo: a@example.com\r\n\r\nhello =C3=A9 http://x/off?token=3D5FAB\r\n');
    const [mail] = readOutbox(dir);
    expect(mail.raw).toContain('<http://x/one-click?token=5FN2w>');
    expect(mail.raw).toContain('hello é');
    expect(mail.links).toContain('http://x/off?token=5FAB');
    expect(mail.to).toBe('a@example.com');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
