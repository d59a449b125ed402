/** The port a test server is given (tests/setup/server-process.ts): free, and never one the kernel hands an outgoing connection. */
import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { ephemeralPorts, freePort } from '#tests/setup/server-process.ts';

describe('freePort', () => {
  it('gives ports below the outgoing connections’ range that a server can then listen on', async () => {
    const { low } = ephemeralPorts();
    for (let i = 0; i < 20; i += 1) {
      const port = await freePort();
      expect(port).toBeGreaterThanOrEqual(1024);
      if (low > 21_000) expect(port).toBeLessThan(low);
      const server = createServer();
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(port, '127.0.0.1', resolve);
      });
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
