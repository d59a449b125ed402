/**
 * The server as one JavaScript file, for the test runs that start it as a process many times (the
 * e2e journeys start ~30). Loading src/server/main.ts through tsx resolves and transforms some
 * hundreds of modules on every start (~7 s on two cores); the bundle starts in ~3 s. Built once per
 * test run by the global setup from the sources as they are, so it is never stale; `npm start` and
 * every script still run the sources through tsx.
 *
 * The packages are bundled too, but PGlite, which finds its WebAssembly and data files beside its own
 * module: a start then reads one file instead of some hundreds of modules in node_modules, 1.7 CPU-s
 * against 2.4-2.9 with the packages left outside (four starts each, a migrated data folder). The CommonJS
 * packages' `require` of Node's modules is given a real `require` (the banner). Each of the app's own
 * modules keeps its `import.meta.url` (the migrations folder, docs/openapi.json and createRequire are
 * found relative to their source file), so the bundle reads the same files the sources do.
 */
import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build, type Plugin } from 'esbuild';

/** Where startServer finds the bundle, when a test run has built one (tests/setup/server-process.ts). */
export const SERVER_BUNDLE_ENV = 'HM_TEST_SERVER_BUNDLE';
/** The CLI's bundle, likewise (its tests spawn it a dozen times). */
export const CLI_BUNDLE_ENV = 'HM_TEST_CLI_BUNDLE';

/**
 * Every module keeps its source file's URL, except the entry: the CLI runs its command only when its
 * own URL is the script node was given, and in the bundle that script is the bundle.
 */
function keepImportMetaUrl(entry: string): Plugin {
  return {
    name: 'keep-import-meta-url',
    setup(builder) {
      builder.onLoad({ filter: /[\\/]src[\\/].*\.ts$/ }, async (args) => {
        const source = await readFile(args.path, 'utf8');
        if (args.path === entry) return { contents: source, loader: 'ts' };
        return { contents: source.replaceAll('import.meta.url', JSON.stringify(pathToFileURL(args.path).href)), loader: 'ts' };
      });
    },
  };
}

/** How a test spawns the CLI: the run's bundle when there is one, else the sources through tsx (as `npm run cli` does). */
/**
 * Node flags for the processes tests start (servers, the CLI, the journeys' workers): WebAssembly compiled by
 * V8's baseline compiler only. PGlite is a large WebAssembly module, and its optimising compile cost
 * each process's first open about 1.7 CPU-seconds of 3.5 (measured here, four opens in one process:
 * 3.5, 1.8, 1.6, 1.6 s against 1.8, 1.6, 1.5, 1.5 s), with no difference on the queries tests make.
 * Test processes are short; a deployment (`npm start`) keeps V8's default, and so do the unit half's
 * workers, which run the journal's Argon2id (vitest.config.ts says why).
 */
export const TEST_NODE_FLAGS = ['--liftoff-only'];

export function cliCommand(): string[] {
  const bundle = process.env[CLI_BUNDLE_ENV];
  return [...TEST_NODE_FLAGS, ...(bundle ? [bundle] : ['--import', 'tsx', 'src/server/cli.ts'])];
}

/** How a test starts the server as `npm start` would: the run's bundle when there is one, else the sources through tsx. */
export function serverCommand(): string[] {
  const bundle = process.env[SERVER_BUNDLE_ENV];
  return [...TEST_NODE_FLAGS, ...(bundle ? [bundle] : ['--import', 'tsx', 'src/server/main.ts'])];
}

/** Bundles the server and the CLI into `outDir`; returns both files' paths. */
export async function buildServerBundles(outDir: string): Promise<{ server: string; cli: string }> {
  const [server, cli] = await Promise.all([bundle('src/server/main.ts', join(outDir, `server-${process.pid}.mjs`)), bundle('src/server/cli.ts', join(outDir, `cli-${process.pid}.mjs`))]);
  return { server, cli };
}

async function bundle(entry: string, outfile: string): Promise<string> {
  await build({
    entryPoints: [entry],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    // Found beside its module at run time (pglite.wasm, pglite.data).
    external: ['@electric-sql/pglite'],
    banner: { js: "import { createRequire as __bundleCreateRequire } from 'node:module'; const require = __bundleCreateRequire(import.meta.url);" },
    logLevel: 'warning',
    // The entry by its whole path: a suffix would also match, say, a future domain.ts for main.ts.
    plugins: [keepImportMetaUrl(resolve(entry))],
  });
  return outfile;
}
