/**
 * Secrets that must survive restarts but need no operator: generated once, kept in DATA_DIR
 * (mode 0600, the folder 0700). An explicit env value always wins.
 */
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * A file copied in by hand, restored from a backup or made under a loose umask may be readable by
 * every account on the machine (issue 33, row 14): each start tightens it to the owner only. A file
 * the process may not change (another owner, a read-only mount) is left as it is and still read.
 */
function ownerOnly(path: string, mode: number): void {
  try {
    chmodSync(path, mode);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'EPERM' && code !== 'EROFS') throw error;
  }
}

export function loadOrCreateSecret(dataDir: string, name: string, explicit?: string): string {
  if (explicit) return explicit;
  const dir = join(dataDir, 'secrets');
  const file = join(dir, name);
  if (existsSync(file)) {
    ownerOnly(dir, 0o700);
    ownerOnly(file, 0o600);
    return readFileSync(file, 'utf8').trim();
  }
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const value = randomBytes(32).toString('base64url');
  writeFileSync(file, value, { mode: 0o600, flag: 'wx' });
  return value;
}
