/** A local fake of @aparajita/capacitor-secure-storage's get/set/remove (values as kept, null when absent). */
import type { SecureStorageLike } from '#web/platform/native-platform.ts';

export function memoryStorage(): SecureStorageLike & { values: Map<string, string> } {
  const values = new Map<string, string>();
  return {
    values,
    get: (key) => Promise.resolve(values.get(key) ?? null),
    set: (key, value) => Promise.resolve(void values.set(key, value)),
    remove: (key) => Promise.resolve(values.delete(key)),
  };
}
