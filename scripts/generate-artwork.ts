/**
 * Generates the catalogue's artwork (issue 17, item 4): one small SVG per category (a sky, a sun
 * or moon, the harbour's waves), made here from numbers, with no image taken from anywhere else.
 * Writes src/web/features/catalogue/artwork/<category>.svg; run after changing a palette:
 *
 *   node --import tsx scripts/generate-artwork.ts
 *
 * The output is committed. It is deterministic: the same input gives the same bytes.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ASSIGNABLE_CATEGORIES } from '#shared/catalogue.ts';

type Palette = { sky: [string, string]; orb: string; orbAt: [number, number]; waves: [string, string, string] };

/** Per category: its sky (top, bottom), the sun or moon and where it sits, three waves from back to front. */
const PALETTES: Partial<Record<string, Palette>> = {
  morning: { sky: ['#fde68a', '#fdba74'], orb: '#fff7ed', orbAt: [300, 62], waves: ['#5eead4', '#14b8a6', '#0f766e'] },
  sleeping: { sky: ['#1e3a5f', '#312e81'], orb: '#e0e7ff', orbAt: [90, 40], waves: ['#334155', '#1e293b', '#0f172a'] },
  'emotional-wellbeing': { sky: ['#fce7f3', '#fbcfe8'], orb: '#fff1f2', orbAt: [250, 48], waves: ['#f9a8d4', '#f472b6', '#be185d'] },
  happiness: { sky: ['#fef9c3', '#fde047'], orb: '#fffbeb', orbAt: [120, 50], waves: ['#fcd34d', '#f59e0b', '#b45309'] },
  mindfulness: { sky: ['#f0fdfa', '#ccfbf1'], orb: '#ffffff', orbAt: [200, 44], waves: ['#99f6e4', '#2dd4bf', '#0d9488'] },
  journal: { sky: ['#fafaf9', '#e7e5e4'], orb: '#fef3c7', orbAt: [320, 40], waves: ['#d6d3d1', '#a8a29e', '#57534e'] },
  'significant-chapters': { sky: ['#ede9fe', '#c4b5fd'], orb: '#faf5ff', orbAt: [80, 56], waves: ['#a78bfa', '#7c3aed', '#4c1d95'] },
  'chronic-health-care': { sky: ['#ecfdf5', '#a7f3d0'], orb: '#f0fdf4', orbAt: [280, 46], waves: ['#6ee7b7', '#10b981', '#047857'] },
  endometriosis: { sky: ['#fff1f2', '#fecdd3'], orb: '#fffbeb', orbAt: [150, 42], waves: ['#fda4af', '#fb7185', '#be123c'] },
  fibromyalgia: { sky: ['#f0f9ff', '#bae6fd'], orb: '#ffffff', orbAt: [330, 52], waves: ['#7dd3fc', '#38bdf8', '#0369a1'] },
  anxiety: { sky: ['#ecfeff', '#a5f3fc'], orb: '#f0fdfa', orbAt: [60, 44], waves: ['#67e8f9', '#06b6d4', '#0e7490'] },
  'emotional-regulation': { sky: ['#fdf4ff', '#f5d0fe'], orb: '#ffffff', orbAt: [240, 58], waves: ['#e879f9', '#c026d3', '#86198f'] },
  default: { sky: ['#f0fdfa', '#e0f2fe'], orb: '#ffffff', orbAt: [210, 50], waves: ['#99f6e4', '#5eead4', '#0f766e'] },
};

const WIDTH = 400;
const HEIGHT = 120;

/** A small deterministic number from a name, so each category's waves have their own rhythm. */
function seedOf(name: string): number {
  let h = 2166136261;
  for (const c of name) h = Math.imul(h ^ c.charCodeAt(0), 16777619) >>> 0;
  return h;
}

/** A wave across the picture at `base`, closed along the bottom; smooth quadratic curves. */
function wave(base: number, amplitude: number, length: number, phase: number): string {
  const points: string[] = [`M0 ${base.toFixed(1)}`];
  const step = length / 2;
  let up = phase % 2 === 0;
  for (let x = 0; x < WIDTH + step; x += step) {
    const peak = base + (up ? -amplitude : amplitude);
    points.push(`Q${(x + step / 2).toFixed(1)} ${peak.toFixed(1)} ${(x + step).toFixed(1)} ${base.toFixed(1)}`);
    up = !up;
  }
  points.push(`V${HEIGHT}H0Z`);
  return points.join('');
}

function artwork(name: string, palette: Palette): string {
  const seed = seedOf(name);
  const rhythm = (n: number) => 90 + ((seed >> (n * 4)) % 60);
  const [cx, cy] = palette.orbAt;
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${WIDTH} ${HEIGHT}" preserveAspectRatio="xMidYMid slice">`,
    `<defs><linearGradient id="s" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="${palette.sky[0]}"/><stop offset="1" stop-color="${palette.sky[1]}"/></linearGradient></defs>`,
    `<rect width="${WIDTH}" height="${HEIGHT}" fill="url(#s)"/>`,
    `<circle cx="${cx}" cy="${cy}" r="30" fill="${palette.orb}" opacity=".35"/>`,
    `<circle cx="${cx}" cy="${cy}" r="18" fill="${palette.orb}"/>`,
    `<path d="${wave(78, 6, rhythm(0), seed)}" fill="${palette.waves[0]}" opacity=".55"/>`,
    `<path d="${wave(92, 7, rhythm(1), seed >> 3)}" fill="${palette.waves[1]}" opacity=".7"/>`,
    `<path d="${wave(106, 5, rhythm(2), seed >> 5)}" fill="${palette.waves[2]}"/>`,
    '</svg>',
    '',
  ].join('');
}

const out = join('src', 'web', 'features', 'catalogue', 'artwork');
mkdirSync(out, { recursive: true });
const names = [...ASSIGNABLE_CATEGORIES.map((category) => category.id), 'default'];
for (const name of names) {
  const palette = PALETTES[name];
  if (!palette) throw new Error(`no palette for ${name}: add one to scripts/generate-artwork.ts`);
  const svg = artwork(name, palette);
  writeFileSync(join(out, `${name}.svg`), svg);
  console.log(`${name}.svg`.padEnd(28), `${svg.length} bytes`);
}
