/**
 * A Vite plugin that writes `.vite/bundle-report.json` beside the manifest: for every JavaScript
 * chunk of the build, its modules' rendered bytes (after tree-shaking, before minification: compare parts, not totals), grouped by
 * package (`react-dom`, `@tanstack/query-core`, …) or by the app's own folder. `npm run bench:bundle`
 * prints what each route's first load is made of from it, so a regression names its cause.
 */
import type { Plugin } from 'vite';

/** Chunk file → what is in it, largest first. */
export type BundleReport = Record<string, { name: string; parts: { part: string; bytes: number }[] }>;

/** A module id as a readable part: the npm package, or the app's folder under src/. */
export function partOf(id: string): string {
  const clean = id.replace(/^\0/, '').replace(/\?.*$/, '');
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(clean);
  if (pkg?.[1]) return pkg[1];
  const own = /\/src\/((?:web|shared)\/(?:features\/[^/]+|[^/]+))/.exec(clean);
  return own?.[1] ?? clean.split('/').slice(-2).join('/');
}

export function bundleReport(): Plugin {
  return {
    name: 'harbour-mind:bundle-report',
    apply: 'build',
    generateBundle(_options, bundle) {
      const report: BundleReport = {};
      for (const output of Object.values(bundle)) {
        if (output.type !== 'chunk') continue;
        const parts = new Map<string, number>();
        for (const [id, module] of Object.entries(output.modules)) {
          parts.set(partOf(id), (parts.get(partOf(id)) ?? 0) + module.renderedLength);
        }
        report[output.fileName] = {
          name: output.name,
          parts: [...parts].map(([part, bytes]) => ({ part, bytes })).sort((a, b) => b.bytes - a.bytes),
        };
      }
      this.emitFile({ type: 'asset', fileName: '.vite/bundle-report.json', source: JSON.stringify(report, null, 1) });
    },
  };
}
