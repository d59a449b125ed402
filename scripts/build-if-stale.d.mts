/** Types for build-if-stale.mjs (plain JavaScript so `npm start` runs it before tsx is registered). */
export function isBuildStale(): boolean;
export function buildIfStale(options?: { force?: boolean }): void;
