/** Types of scripts/native.mjs's checks, for the tests (tests/native-web-layer.test.ts). */
export function appServer(env: Record<string, string | undefined>): { server: string | null; error?: undefined } | { error: string; server?: undefined };
export function appCsp(html: string, server: string | null): string;
export function withCspMeta(html: string, csp: string): string;
