/**
 * Renders the native apps' icons and splash screens from the logo (src/web/public/favicon.svg) with
 * Debian's Chromium (issue 19, item 1), into every image slot the Capacitor templates created in
 * ios/ and android/, at each slot's own size, so they always match the web's icons.
 * Usage: node --import tsx scripts/generate-native-assets.ts (outputs are committed).
 */
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { launchBrowser } from '#tests/e2e/support/browser.ts';
import { THEME_COLORS } from '#shared/theme.ts';

const svg = readFileSync('src/web/public/favicon.svg', 'utf8');
const TEAL = '#0f766e';
/** The logo's waves and sun without its rounded tile, for slots that draw their own background. */
const artOnly = svg.replace(/<rect[^>]*\/>/, '');

type Style = { background: string; art: string; scale: number; round?: boolean };

/** What each slot shows: opaque tiles for launchers (iOS refuses transparency), the adaptive foreground inside Android's 66/108 safe zone, a calm splash. */
function styleFor(path: string): Style {
  if (path.includes('ic_launcher_foreground')) return { background: 'transparent', art: artOnly, scale: 0.61 };
  if (path.includes('ic_launcher_round')) return { background: TEAL, art: artOnly, scale: 0.8, round: true };
  if (path.includes('ic_launcher') || path.includes('AppIcon')) return { background: TEAL, art: artOnly, scale: 0.8 };
  return { background: THEME_COLORS.light, art: svg, scale: 0.22 };
}

function pngSize(path: string): { width: number; height: number } {
  const bytes = readFileSync(path);
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

function pngsUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? pngsUnder(path) : name.endsWith('.png') ? [path] : [];
  });
}

const slots = [...pngsUnder('android/app/src/main/res'), ...pngsUnder('ios/App/App/Assets.xcassets')];
const browser = await launchBrowser();
try {
  for (const path of slots) {
    const { width, height } = pngSize(path);
    const style = styleFor(path);
    const art = Math.round(Math.min(width, height) * style.scale);
    const page = await browser.newPage({ viewport: { width, height }, deviceScaleFactor: 1 });
    await page.setContent(
      `<html><body style="margin:0;width:${width}px;height:${height}px;display:grid;place-items:center;background:${style.round ? 'transparent' : style.background}">` +
        `<div style="display:grid;place-items:center;width:${width}px;height:${height}px;${style.round ? `border-radius:50%;background:${style.background}` : ''}">` +
        `<div style="width:${art}px;height:${art}px">${style.art.replace('<svg ', `<svg width="${art}" height="${art}" `)}</div></div></body></html>`,
    );
    await page.screenshot({ path, omitBackground: style.background === 'transparent' || style.round === true });
    await page.close();
    console.log(path, `${width}×${height}`);
  }
} finally {
  await browser.close();
}

// Android's adaptive icon draws its own background behind the foreground: the logo's teal.
writeFileSync('android/app/src/main/res/values/ic_launcher_background.xml', `<?xml version="1.0" encoding="utf-8"?>\n<resources>\n    <color name="ic_launcher_background">${TEAL}</color>\n</resources>\n`);
