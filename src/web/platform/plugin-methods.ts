/**
 * A Capacitor plugin's methods as a plain object. Capacitor's plugin objects are proxies that answer
 * every property, `then` included (by throwing), so one must never be the value a promise resolves
 * to: the native loaders hand out this copy instead, each method calling the plugin's own.
 */
export function pluginMethods<Plugin extends object, Name extends keyof Plugin>(plugin: Plugin, names: readonly Name[]): Pick<Plugin, Name> {
  const methods: Partial<Pick<Plugin, Name>> = {};
  for (const name of names) {
    const call = (...args: unknown[]): unknown => Reflect.apply(plugin[name] as (...args: unknown[]) => unknown, plugin, args);
    methods[name] = call as Plugin[Name];
  }
  return methods as Pick<Plugin, Name>;
}
