/** Issue 33, row 14: a secret left readable by others is tightened at start. */
import { chmodSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadOrCreateSecret } from '#server/secrets.ts';

const modeOf = (path: string) => statSync(path).mode & 0o777;

describe('secrets in DATA_DIR', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });
  const dataDir = () => {
    const dir = mkdtempSync(join(tmpdir(), 'hm-secrets-'));
    dirs.push(dir);
    return dir;
  };

  it('makes a new secret readable by its owner only', () => {
    const dir = dataDir();
    const value = loadOrCreateSecret(dir, 'auth-secret');
    expect(value).toMatch(/^[\w-]{43}$/);
    expect(modeOf(join(dir, 'secrets', 'auth-secret'))).toBe(0o600);
    expect(modeOf(join(dir, 'secrets'))).toBe(0o700);
    expect(loadOrCreateSecret(dir, 'auth-secret')).toBe(value);
  });

  it('tightens an existing secret left at 0644 (and its folder at 0755) when it is read at start', () => {
    const dir = dataDir();
    mkdirSync(join(dir, 'secrets'), { mode: 0o755 });
    chmodSync(join(dir, 'secrets'), 0o755);
    writeFileSync(join(dir, 'secrets', 'auth-secret'), 'kept-from-before\n', { mode: 0o644 });
    chmodSync(join(dir, 'secrets', 'auth-secret'), 0o644);
    expect(loadOrCreateSecret(dir, 'auth-secret')).toBe('kept-from-before');
    expect(modeOf(join(dir, 'secrets', 'auth-secret'))).toBe(0o600);
    expect(modeOf(join(dir, 'secrets'))).toBe(0o700);
  });

  it('leaves the files alone when the secret comes from the environment', () => {
    const dir = dataDir();
    expect(loadOrCreateSecret(dir, 'auth-secret', 'from-env')).toBe('from-env');
  });
});
