/**
 * Renders the PWA icons from the logo (src/web/public/favicon.svg) with Debian's Chromium, so the
 * PNGs always match the SVG. Usage: node --import tsx scripts/generate-icons.ts (outputs are committed).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { launchBrowser } from '#tests/e2e/support/browser.ts';

const svg = readFileSync('src/web/public/favicon.svg', 'utf8');
const out = 'src/web/public/icons';
// Maskable icons keep the artwork inside the central safe zone (80%) on a full-bleed background.
const targets = [
  { file: 'icon-192.png', size: 192, maskable: false },
  { file: 'icon-512.png', size: 512, maskable: false },
  { file: 'maskable-512.png', size: 512, maskable: true },
  { file: 'apple-touch-icon-180.png', size: 180, maskable: true },
];

const browser = await launchBrowser();
try {
  for (const { file, size, maskable } of targets) {
    const page = await browser.newPage({ viewport: { width: size, height: size }, deviceScaleFactor: 1 });
    const inner = maskable ? Math.round(size * 0.8) : size;
    const art = maskable ? svg.replace('rx="16"', 'rx="0"') : svg;
    await page.setContent(
      `<html><body style="margin:0;background:${maskable ? '#0f766e' : 'transparent'};display:grid;place-items:center;width:${size}px;height:${size}px">` +
        `<div style="width:${inner}px;height:${inner}px">${art.replace('<svg ', `<svg width="${inner}" height="${inner}" `)}</div></body></html>`,
    );
    await page.screenshot({ path: join(out, file), omitBackground: !maskable });
    await page.close();
    console.log(join(out, file));
  }
} finally {
  await browser.close();
}
