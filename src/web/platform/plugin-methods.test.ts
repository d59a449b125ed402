/** pluginMethods (plugin-methods.ts): the copy the native loaders hand out instead of a Capacitor plugin proxy. */
import { describe, expect, it } from 'vitest';
import { pluginMethods } from '#web/platform/plugin-methods.ts';

describe('pluginMethods', () => {
  it('copies the named methods of a plugin that answers `then`, so a promise can resolve to the copy', async () => {
    const calls: unknown[][] = [];
    // As Capacitor's plugin proxies: every property is a method, `then` included.
    const plugin = new Proxy({} as { writeFile(options: { path: string }, flag?: boolean): Promise<string> }, {
      get: (_, name) =>
        function (this: unknown, ...args: unknown[]) {
          calls.push([name, this === plugin, ...args]);
          return Promise.resolve(`${String(name)} done`);
        },
    });
    const methods = await Promise.resolve(pluginMethods(plugin, ['writeFile']));
    expect(Object.keys(methods)).toEqual(['writeFile']);
    expect(await methods.writeFile({ path: 'a' }, true)).toBe('writeFile done');
    expect(calls).toEqual([['writeFile', true, { path: 'a' }, true]]);
  });
});
