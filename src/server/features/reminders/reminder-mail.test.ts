/** The e-mail reminder's turn-off token (issue 38, item 6): made only by the server's key, for one person and one version. */
import { describe, expect, it } from 'vitest';
import { mailOffTokenFor, readMailOffToken } from '#server/features/reminders/reminder-mail.ts';

const KEY = 'reminders-mail-off:test-secret';

describe('the turn-off token', () => {
  it('names its person and version, and nothing else reads as one', () => {
    const token = mailOffTokenFor(KEY, 'AbC123xyz', 3);
    expect(readMailOffToken(KEY, token)).toEqual({ userId: 'AbC123xyz', version: 3 });
    const [id, version, mac] = token.split('.');
    for (const forged of [
      mailOffTokenFor('another-key', 'AbC123xyz', 3),
      `someone-else.${version}.${mac}`,
      `${id}.4.${mac}`,
      `${id}.${version}.${mac.slice(0, -2)}`,
      `${id}.${version}.${mac}x`,
      `${id}.${version}`,
      `${id}.-1.${mac}`,
      `${token}.extra`,
      // The push reminder's token for a device is not an e-mail one.
      `00000000-0000-4000-8000-000000000000.${mac}`,
      '',
    ]) expect(readMailOffToken(KEY, forged), forged).toBeNull();
    // Different people and versions, different tokens.
    expect(mailOffTokenFor(KEY, 'AbC123xyz', 4)).not.toBe(token);
    expect(mailOffTokenFor(KEY, 'AbC123xyA', 3).split('.')[2]).not.toBe(mac);
  });
});
