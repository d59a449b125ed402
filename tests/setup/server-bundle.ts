/**
 * The server as one JavaScript file, for the test runs that start it as a process many times (the
 * e2e journeys start ~30). Loading src/server/main.ts through tsx resolves and transforms some
 * hundreds of modules on every start (~7 s on two cores); the bundle starts in ~3 s. Built once per
 * test run by the global setup from the sources as they are, so it is never stale; `npm start` and
 * every script still run the sources through tsx.
 *
 * Packages stay external (node_modules as installed). Each module keeps its own `import.meta.url`
 * (the migrations folder, docs/openapi.json and createRequire are found relative to their source
 * file), so the bundle reads the same files the sources do.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build, type Plugin } from 'esbuild';

/** Where startServer finds the bundle, when a test run has built one (tests/setup/server-process.ts). */
export const SERVER_BUNDLE_ENV = 'HM_TEST_SERVER_BUNDLE';

const keepImportMetaUrl: Plugin = {
  name: 'keep-import-meta-url',
  setup(builder) {
    builder.onLoad({ filter: /[\\/]src[\\/].*\.ts$/ }, async (args) => {
      const source = await readFile(args.path, 'utf8');
      return { contents: source.replaceAll('import.meta.url', JSON.stringify(pathToFileURL(args.path).href)), loader: 'ts' };
    });
  },
};

export async function buildServerBundle(outDir: string): Promise<string> {
  const outfile = join(outDir, `server-${process.pid}.mjs`);
  await build({
    entryPoints: ['src/server/main.ts'],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    logLevel: 'warning',
    plugins: [keepImportMetaUrl],
  });
  return outfile;
}
