import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '#server/config.ts';

describe('config', () => {
  it('gives the embedded defaults', () => {
    const config = loadConfig({});
    expect(config.port).toBe(3000);
    expect(config.host).toBe('127.0.0.1');
    expect(config.publicUrl).toBe('http://127.0.0.1:3000');
    expect(config.databaseUrl).toBeUndefined();
    expect(config.stripe).toBeUndefined();
    expect(config.seedDemo).toBe(true);
    expect(config.dataDir.endsWith('/data')).toBe(true);
  });

  it('reads HOST, PORT, DATABASE_URL and SEED_DEMO', () => {
    const config = loadConfig({ HOST: '0.0.0.0', PORT: '8080', DATABASE_URL: 'postgres://u@db/x', SEED_DEMO: 'false' });
    expect(config.port).toBe(8080);
    expect(config.publicUrl).toBe('http://127.0.0.1:8080');
    expect(config.databaseUrl).toBe('postgres://u@db/x');
    expect(config.seedDemo).toBe(false);
  });

  it('lists every invalid variable at once', () => {
    try {
      loadConfig({ PORT: 'eighty', DATABASE_URL: 'mysql://x', SEED_DEMO: 'maybe', LOG_LEVEL: 'loud' });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      const problems = (error as ConfigError).problems.join('\n');
      for (const name of ['PORT', 'DATABASE_URL', 'SEED_DEMO', 'LOG_LEVEL']) expect(problems).toContain(name);
    }
  });
});
