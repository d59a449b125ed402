/**
 * Takes screenshots of the main visitor screens at phone and desktop widths, light and dark,
 * into .tmp/screenshots (for people to look at; not a test). Usage: node --import tsx scripts/screenshots.ts [path...]
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { launchBrowser } from '#tests/e2e/support/browser.ts';
import { startServer } from '#tests/setup/server-process.ts';

const OUT = join('.tmp', 'screenshots');
mkdirSync(OUT, { recursive: true });

const pages = process.argv.slice(2).length ? process.argv.slice(2) : ['/', '/meditations/chronic-health-care', 'dialog', '/why-i-created-harbour-mind', '/support', '/terms', '/nowhere'];
const server = await startServer();
const browser = await launchBrowser();
try {
  for (const scheme of ['light', 'dark'] as const) {
    for (const width of [390, 1280]) {
      const context = await browser.newContext({ viewport: { width, height: width < 500 ? 844 : 900 }, colorScheme: scheme, deviceScaleFactor: 1 });
      const page = await context.newPage();
      for (const target of pages) {
        const path = target === 'dialog' ? '/meditations/sleeping' : target;
        await page.goto(`${server.url}${path}`);
        await page.waitForLoadState('networkidle');
        if (target === 'dialog') {
          await page.getByTestId('meditation-card').first().click();
          await page.getByRole('dialog').waitFor();
        }
        const name = `${(target === '/' ? 'home' : target.replace(/^\//, '').replace(/\//g, '_'))}-${width}-${scheme}.png`;
        await page.screenshot({ path: join(OUT, name), fullPage: target !== 'dialog' });
        console.log(join(OUT, name));
      }
      await context.close();
    }
  }
} finally {
  await browser.close();
  await server.stop();
}
