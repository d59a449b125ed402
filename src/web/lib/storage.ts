/**
 * Web Storage that never throws. Browsers throw on access when storage is blocked (private modes,
 * cookies disabled: even reading the `localStorage` property can throw) and on writes when it is
 * full. Every caller treats both the same way: nothing stored, or not saved.
 */
type Area = 'local' | 'session';

const storageFor = (area: Area): Storage => (area === 'local' ? localStorage : sessionStorage);

/** The stored text, or null when there is none or storage cannot be read. */
export function readStored(key: string, area: Area = 'local'): string | null {
  try {
    return storageFor(area).getItem(key);
  } catch {
    return null;
  }
}

/** Stores the text; false when the browser refused (blocked or full). */
export function writeStored(key: string, value: string, area: Area = 'local'): boolean {
  try {
    storageFor(area).setItem(key, value);
    return true;
  } catch {
    return false;
  }
}

/** Removes the key; blocked storage holds nothing to remove, so a refusal is not an error. */
export function removeStored(key: string, area: Area = 'local'): void {
  try {
    storageFor(area).removeItem(key);
  } catch {
    // Nothing could have been stored there either.
  }
}
