/**
 * Secrets that must survive restarts but need no operator: generated once, kept in DATA_DIR
 * (mode 0600). An explicit env value always wins.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export function loadOrCreateSecret(dataDir: string, name: string, explicit?: string): string {
  if (explicit) return explicit;
  const file = join(dataDir, 'secrets', name);
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(join(dataDir, 'secrets'), { recursive: true, mode: 0o700 });
  const value = randomBytes(32).toString('base64url');
  writeFileSync(file, value, { mode: 0o600, flag: 'wx' });
  return value;
}
