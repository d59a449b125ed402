/**
 * V8's explicit compile hint (`//# allFunctionsCalledOnLoad`, Chrome 136+) at the top of the boot
 * chunk: V8 compiles every function of the file as it arrives, on a background thread, instead of each
 * one on the main thread the first time it is called. Nearly all of boot.js runs at start (React's
 * reconciler hydrating the page, the router, the query cache, the layout), so compiling it up front
 * costs little extra, and what it takes off the main thread is what made the longest tasks after the
 * first paint (issue 39). Measured with Lighthouse mobile on `/`, four runs each way, each pair in the
 * same minute: TBT 540/282/436/208 ms without the hint, 335/130/293/109 ms with it; boot.js scripting
 * 1 066–1 426 ms against 852–1 277 ms (docs/performance.md). Browsers that do not know the comment read
 * a comment. The comment must be the file's first line, so it is added after Vite's own prelude.
 */
import type { Plugin } from 'vite';

export const COMPILE_HINT = '//# allFunctionsCalledOnLoad';

export function compileHints({ chunks }: { chunks: readonly string[] }): Plugin {
  return {
    name: 'harbour-mind:compile-hints',
    apply: 'build',
    generateBundle: {
      // After Vite's preload helper has written the chunk's first line (its list of dependencies).
      order: 'post',
      handler(_options, bundle) {
        for (const file of Object.values(bundle)) {
          if (file.type === 'chunk' && chunks.includes(file.name)) file.code = `${COMPILE_HINT}\n${file.code}`;
        }
      },
    },
  };
}
