/**
 * Capacitor's bridge as a shell's WebView presents it, for unit tests that drive the plugins' own
 * JavaScript: `window.webkit.messageHandlers.bridge` (iOS) or `window.androidBridge`, and
 * `window.Capacitor` with the plugin headers the native side announces and `nativePromise`, which
 * here answers from the given native halves. Each plugin's JavaScript (its CommonJS build, with a
 * Capacitor core of its own, loaded afresh) then makes exactly the calls it makes on a device:
 * method names and options as they cross the bridge.
 *
 * Fresh on every call: Capacitor's core decides the platform and reads the headers when a plugin
 * registers, and registers a plugin once per process; the web tests share a process
 * (vitest.config.ts), where another file may have loaded the plugins as 'web'.
 */
import { createRequire } from 'node:module';
import { vi } from 'vitest';

const require = createRequire(import.meta.url);

/** A plugin's native half: its methods, each answering the options it is sent (rejecting as the device does). */
export type NativeHalf = Record<string, (options: Record<string, unknown>) => Promise<unknown>>;

export type BridgeCall = { plugin: string; method: string; options: Record<string, unknown> };

export function fakeCapacitorBridge(kind: 'ios' | 'android', natives: Record<string, NativeHalf>) {
  const calls: BridgeCall[] = [];
  const cache = require.cache as Record<string, unknown>;
  for (const key of Object.keys(cache)) if (/[\\/]node_modules[\\/](@capacitor|@capgo[\\/]capacitor-native-biometric)[\\/]/.test(key)) Reflect.deleteProperty(cache, key);
  const bridge = { postMessage: () => undefined };
  if (kind === 'ios') vi.stubGlobal('webkit', { messageHandlers: { bridge } });
  else vi.stubGlobal('androidBridge', bridge);
  vi.stubGlobal('Capacitor', {
    PluginHeaders: Object.entries(natives).map(([name, methods]) => ({ name, methods: Object.keys(methods).map((method) => ({ name: method, rtype: 'promise' })) })),
    nativePromise: (plugin: string, method: string, options: Record<string, unknown> = {}) => {
      calls.push({ plugin, method, options });
      const native = Object.hasOwn(natives, plugin) && Object.hasOwn(natives[plugin], method) ? natives[plugin][method] : null;
      return native ? native(options) : Promise.reject(new Error(`${plugin}.${method} is not on this device`));
    },
    nativeCallback: () => {
      throw new Error('no callbacks on this bridge');
    },
  });
  return {
    calls,
    /** A plugin package's own JavaScript (e.g. '@capacitor/share'), registered against this bridge. */
    plugin: (pkg: '@capacitor/filesystem' | '@capacitor/share' | '@capacitor/browser' | '@capgo/capacitor-native-biometric'): unknown => require(pkg),
  };
}
