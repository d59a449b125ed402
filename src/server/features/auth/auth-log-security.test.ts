/**
 * Issue 33, row 4: log forging without an account. better-auth's own logger wrote raw text, so a
 * callbackURL holding CR LF (`/%0D%0A{"level":60,…}`) wrote a whole fake JSON line into the log. Its
 * lines now go through the app's pino logger, which writes one JSON object a line, every string
 * escaped. The app runs with NODE_ENV=development here: in `test` its logger used to be off.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { captureLog, createTestApp, type TestApp } from '#tests/setup/test-app.ts';

const FORGED = '{"level":60,"time":1,"msg":"forged: admin password reset"}';

describe('better-auth cannot write a line of its own into the log', () => {
  let t: TestApp;
  const { lines, stream } = captureLog();
  beforeAll(async () => {
    t = await createTestApp({ env: { NODE_ENV: 'development' }, logger: { level: 'debug', stream } });
  });
  afterAll(() => t.close());
  afterEach(() => vi.restoreAllMocks());

  /** Every console method better-auth's default logger writes with. */
  const watchConsole = () => ['log', 'info', 'warn', 'error', 'debug'].map((method) => vi.spyOn(console, method as 'log').mockImplementation(() => {}));
  const consoleText = (spies: ReturnType<typeof watchConsole>) => spies.flatMap((spy) => spy.mock.calls.flat().map(String)).join('\n');

  /** Each captured line must be one JSON object the app wrote (pino's), none with the forged level. */
  function expectOnlyRealLines(from: number) {
    const written = lines.slice(from).join('').split('\n').filter(Boolean);
    for (const line of written) {
      const entry = JSON.parse(line) as { level?: number; msg?: string };
      expect(entry.level, line).not.toBe(60);
      expect(line.startsWith('{"level":60'), line).toBe(false);
    }
    return written;
  }

  it('refuses the forging request of the attack and writes no forged line anywhere', async () => {
    const spies = watchConsole();
    const from = lines.length;
    const res = await t.app.inject({ method: 'GET', url: `/api/auth/verify-email?token=x&callbackURL=/${encodeURIComponent(`\r\n${FORGED}`)}` });
    expect(res.statusCode).toBe(400);
    expectOnlyRealLines(from);
    expect(consoleText(spies)).not.toContain('forged');
  });

  it('sends better-auth\'s own log lines through pino, a line break and all inside one escaped JSON line', async () => {
    const spies = watchConsole();
    const from = lines.length;
    const { logger } = await t.app.auth.$context;
    logger.error(`Invalid callbackURL: /\r\n${FORGED}`, new Error('with a cause'));
    logger.warn(`Invalid origin: \n${FORGED}`);
    const written = expectOnlyRealLines(from);
    const fromAuth = written.map((line) => JSON.parse(line) as { source?: string; msg: string; level: number; err?: { message: string } }).filter((e) => e.source === 'better-auth');
    expect(fromAuth.map((e) => [e.level, e.msg])).toEqual([
      [50, `Invalid callbackURL: /\r\n${FORGED}`],
      [40, `Invalid origin: \n${FORGED}`],
    ]);
    expect(fromAuth[0].err?.message).toBe('with a cause');
    expect(consoleText(spies)).toBe('');
  });
});
