/** Something a describe block opens once before its tests and closes after them (a test app, a database, a fake server). */
import { afterAll, beforeAll } from 'vitest';

/**
 * Opens `open()` in beforeAll and closes it in afterAll. The returned object stands in for the
 * resource: its properties are the opened resource's, so tests write `t.app.inject(...)` as usual.
 */
export function openForSuite<T extends { close(): unknown }>(open: () => Promise<T>): T {
  let resource: T | undefined;
  beforeAll(async () => {
    resource = await open();
  });
  afterAll(async () => {
    await resource?.close();
  });
  return new Proxy({} as T, {
    get(_, key) {
      if (!resource) throw new Error('openForSuite: read before beforeAll opened it (use it inside a test or hook)');
      const value: unknown = Reflect.get(resource, key);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(resource) : value;
    },
  });
}
