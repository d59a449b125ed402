/**
 * A Vite plugin that writes `name.br` and `name.gz` beside every compressible file of the build
 * (scripts, styles, HTML, SVG, the manifest) once it is written: the server sends them by
 * Accept-Encoding (src/server/static-files.ts holds them in memory), so no request pays for compression and each
 * asset gets the best ratio rather than a speed-minded one: brotli 11, and gzip by zopfli for the larger files
 * (decision 0068), a gzip any browser reads that is about 3 % smaller than zlib's level 9 (the boot chunk:
 * 110.6 → 107.0 KB).
 */
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { gzipAsync } from '@gfx/zopfli';
import type { Plugin } from 'vite';

const COMPRESSIBLE = /\.(?:js|mjs|css|html|svg|json|webmanifest|txt)$/;
/** Below this a compressed copy saves less than its headers cost (the server's on-the-fly threshold too). */
const MIN_BYTES = 1024;
/**
 * Zopfli where it pays (decision 0068): each call costs about half a second of CPU whatever the size, so a
 * file under 20 KB gains a few bytes for it, and the password checker's dictionaries (over 400 KB each,
 * fetched only while someone types a new password) took seconds each. Those keep zlib's level 9.
 */
const ZOPFLI_BYTES = { min: 20_000, max: 400_000 };

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

export function precompress(): Plugin {
  let outDir = '';
  return {
    name: 'harbour-mind:precompress',
    apply: 'build',
    configResolved(config) {
      outDir = resolve(config.root, config.build.outDir);
    },
    // After every other plugin has written its files (the PWA plugin writes sw.js at closeBundle).
    closeBundle: {
      order: 'post',
      sequential: true,
      async handler() {
        for (const file of filesUnder(outDir)) {
          if (!COMPRESSIBLE.test(file)) continue;
          const bytes = readFileSync(file);
          if (bytes.length < MIN_BYTES) continue;
          const br = brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY, [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length } });
          // One iteration: more (15 is zopfli's default) took twice the time for under 0.1 % more.
          const zopfli = bytes.length >= ZOPFLI_BYTES.min && bytes.length <= ZOPFLI_BYTES.max;
          const gz = zopfli ? await gzipAsync(bytes, { numiterations: 1 }) : gzipSync(bytes, { level: constants.Z_BEST_COMPRESSION });
          if (br.length < bytes.length) writeFileSync(`${file}.br`, br);
          if (gz.length < bytes.length) writeFileSync(`${file}.gz`, gz);
        }
      },
    },
  };
}
