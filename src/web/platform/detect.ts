/**
 * Which shell the app runs in, decided as @capacitor/core's getPlatform decides it (core's
 * runtime: a custom platform, then Android's bridge, then iOS's WebKit message handler), without
 * loading Capacitor on the web.
 */
export type PlatformKind = 'web' | 'ios' | 'android';

type ShellGlobals = {
  CapacitorCustomPlatform?: { name?: string } | null;
  androidBridge?: unknown;
  webkit?: { messageHandlers?: { bridge?: unknown } };
};

export function detectPlatformKind(globals: ShellGlobals | undefined = typeof window === 'undefined' ? undefined : (window as ShellGlobals)): PlatformKind {
  if (!globals) return 'web';
  const custom = globals.CapacitorCustomPlatform?.name;
  if (custom) return custom === 'ios' || custom === 'android' ? custom : 'web';
  if (globals.androidBridge) return 'android';
  if (globals.webkit?.messageHandlers?.bridge) return 'ios';
  return 'web';
}
