import { describe, expect, it } from 'vitest';
import { ConfigError, configWarnings, loadConfig } from '#server/config.ts';

/** The problems loadConfig() lists for env, or [] when it accepts it. */
function problemsOf(env: Record<string, string>): string[] {
  try {
    loadConfig(env);
    return [];
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as ConfigError).problems;
  }
}

const STRIPE = { STRIPE_SECRET_KEY: 'sk_test_x', STRIPE_WEBHOOK_SECRET: 'whsec_x' };

describe('config', () => {
  it('gives the embedded defaults', () => {
    const config = loadConfig({});
    expect(config.port).toBe(3000);
    expect(config.host).toBe('127.0.0.1');
    expect(config.publicUrl).toBe('http://127.0.0.1:3000');
    expect(config.databaseUrl).toBeUndefined();
    expect(config.stripe).toBeUndefined();
    expect(config.billingMode).toBe('sandbox');
    expect(config.seedDemo).toBe(true);
    expect(config.dataDir.endsWith('/data')).toBe(true);
  });

  it('reads the sign-in backstop, 30 a minute by default, and refuses what is not a positive whole number', () => {
    expect(loadConfig({}).signInRequestsPerMinute).toBe(30);
    expect(loadConfig({ SIGN_IN_REQUESTS_PER_MINUTE: '1000' }).signInRequestsPerMinute).toBe(1000);
    for (const bad of ['0', '-3', '2.5', 'many']) expect(() => loadConfig({ SIGN_IN_REQUESTS_PER_MINUTE: bad }), bad).toThrow(ConfigError);
  });

  it('reads HOST, PORT, DATABASE_URL and SEED_DEMO', () => {
    const config = loadConfig({ HOST: '0.0.0.0', PORT: '8080', DATABASE_URL: 'postgres://u@db/x', AUTH_SECRET: 'shared-secret', SEED_DEMO: 'false' });
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

  describe('billing mode', () => {
    it('defaults to sandbox outside production', () => {
      expect(loadConfig({ NODE_ENV: 'development' }).billingMode).toBe('sandbox');
      expect(loadConfig({ NODE_ENV: 'test' }).billingMode).toBe('sandbox');
    });

    it('refuses to start in production without BILLING_MODE, naming it', () => {
      for (const env of [{ NODE_ENV: 'production' }, { NODE_ENV: 'production', ...STRIPE }]) {
        const problems = problemsOf(env);
        expect(problems.some((p) => p.startsWith('BILLING_MODE: required when NODE_ENV=production'))).toBe(true);
      }
      expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(/BILLING_MODE/);
    });

    it('reads an explicit mode in production, and refuses an unknown one', () => {
      expect(loadConfig({ NODE_ENV: 'production', BILLING_MODE: 'none' }).billingMode).toBe('none');
      expect(loadConfig({ NODE_ENV: 'production', BILLING_MODE: 'stripe', ...STRIPE }).billingMode).toBe('stripe');
      expect(problemsOf({ BILLING_MODE: 'free' }).join('\n')).toMatch(/^BILLING_MODE: must be one of sandbox, stripe, none/);
    });

    it('stripe needs the secret key and the webhook secret', () => {
      expect(problemsOf({ BILLING_MODE: 'stripe' })).toEqual([
        'STRIPE_SECRET_KEY: required when BILLING_MODE=stripe',
        'STRIPE_WEBHOOK_SECRET: required when BILLING_MODE=stripe',
      ]);
      const config = loadConfig({ BILLING_MODE: 'stripe', ...STRIPE });
      expect(config.stripe).toMatchObject({ secretKey: 'sk_test_x', webhookSecret: 'whsec_x' });
    });

    it('refuses a Stripe key without a webhook secret in any mode', () => {
      const envs: Array<Record<string, string>> = [{}, { BILLING_MODE: 'stripe' }, { BILLING_MODE: 'sandbox' }, { BILLING_MODE: 'none' }, { NODE_ENV: 'production', BILLING_MODE: 'stripe' }];
      for (const env of envs) {
        expect(problemsOf({ ...env, STRIPE_SECRET_KEY: 'sk_test_x' }), JSON.stringify(env)).toContain(
          'STRIPE_WEBHOOK_SECRET: required with STRIPE_SECRET_KEY (without it no Stripe webhook can be verified)',
        );
      }
    });

    it('outside production, Stripe keys without BILLING_MODE mean stripe', () => {
      expect(loadConfig(STRIPE).billingMode).toBe('stripe');
    });

    it('refuses Stripe keys that the chosen mode would ignore', () => {
      for (const mode of ['sandbox', 'none']) {
        expect(problemsOf({ BILLING_MODE: mode, ...STRIPE })).toEqual([
          `STRIPE_SECRET_KEY: set, but BILLING_MODE=${mode}; set BILLING_MODE=stripe to sell through Stripe, or remove the key`,
        ]);
      }
    });

    it('allows an explicit sandbox in production, with a loud warning', () => {
      const config = loadConfig({ NODE_ENV: 'production', BILLING_MODE: 'sandbox' });
      expect(config.billingMode).toBe('sandbox');
      expect(configWarnings(config)).toHaveLength(1);
      expect(configWarnings(config)[0]).toMatch(/^BILLING_MODE=sandbox with NODE_ENV=production: anyone can subscribe without paying/);
      expect(configWarnings(loadConfig({ NODE_ENV: 'production', BILLING_MODE: 'none' }))).toEqual([]);
      expect(configWarnings(loadConfig({}))).toEqual([]);
    });
  });

  it('Sign in with Apple’s key: all of APPLE_KEY_ID, APPLE_PRIVATE_KEY_FILE and APPLE_TEAM_ID or none; without it a warning (decision 0064)', () => {
    const apple = { APPLE_CLIENT_ID: 'app.harbourmind.web', APPLE_CLIENT_SECRET: 'secret-jwt' };
    const both = 'APPLE_KEY_ID, APPLE_PRIVATE_KEY_FILE and APPLE_TEAM_ID: set all three to sign Apple client secrets (token revocation at account deletion), or none';
    expect(() => loadConfig({ ...apple, APPLE_KEY_ID: 'ABCDE12345', APPLE_PRIVATE_KEY_FILE: '/keys/AuthKey.p8' })).toThrow(both);
    expect(() => loadConfig({ ...apple, APPLE_KEY_ID: 'ABCDE12345', APPLE_TEAM_ID: 'TEAM123456' })).toThrow(both);
    const keyed = loadConfig({ ...apple, APPLE_KEY_ID: 'ABCDE12345', APPLE_PRIVATE_KEY_FILE: '/keys/AuthKey.p8', APPLE_TEAM_ID: 'TEAM123456' });
    expect(keyed.oauth.appleSigningKey).toEqual({ keyId: 'ABCDE12345', teamId: 'TEAM123456', privateKeyFile: '/keys/AuthKey.p8' });
    expect(configWarnings(keyed)).toEqual([]);
    expect(configWarnings(loadConfig(apple))).toEqual([expect.stringMatching(/^Sign in with Apple is on without APPLE_KEY_ID and APPLE_PRIVATE_KEY_FILE/)]);
  });

  it('refuses DATABASE_URL without AUTH_SECRET (each machine would mint its own secret)', () => {
    const problems = problemsOf({ DATABASE_URL: 'postgres://u@db/x' });
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/^AUTH_SECRET: required with DATABASE_URL/);
    expect(loadConfig({ DATABASE_URL: 'postgres://u@db/x', AUTH_SECRET: 'shared' }).authSecret).toBe('shared');
    expect(loadConfig({ AUTH_SECRET: '' }).authSecret).toBeUndefined();
  });

  it('lists cross-variable problems together', () => {
    const problems = problemsOf({ NODE_ENV: 'production', DATABASE_URL: 'postgres://u@db/x', STRIPE_SECRET_KEY: 'sk_test_x' });
    for (const name of ['BILLING_MODE', 'STRIPE_WEBHOOK_SECRET', 'AUTH_SECRET']) expect(problems.some((p) => p.startsWith(`${name}:`)), name).toBe(true);
  });
});
