/**
 * docs/spec-coverage.md stays true (issue 33, also build 5): its summary counts are the table's, every
 * file, folder and decision record a row cites exists, a `deviation` names a record that exists, and
 * no row points at a section of docs/ARCHITECTURE.md (which has none: the reasons live in
 * docs/decisions/). Read as text; no server, no database.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..');
const DOC = readFileSync(join(ROOT, 'docs/spec-coverage.md'), 'utf8');
const DECISIONS = readdirSync(join(ROOT, 'docs/decisions'));

type Row = { line: number; requirement: string; status: string; where: string };

/** Every row of every requirement table (three cells: requirement, status, where). */
function rows(): Row[] {
  const found: Row[] = [];
  DOC.split('\n').forEach((text, index) => {
    if (!text.startsWith('| ') || text.startsWith('| spec requirement') || text.startsWith('|---')) return;
    // Cells are split on pipes that are not inside backticks.
    const cells: string[] = [];
    let cell = '';
    let code = false;
    for (const ch of text.slice(1, text.trimEnd().endsWith('|') ? text.trimEnd().length - 1 : undefined)) {
      if (ch === '`') code = !code;
      if (ch === '|' && !code) {
        cells.push(cell.trim());
        cell = '';
      } else cell += ch;
    }
    cells.push(cell.trim());
    if (cells.length === 3) found.push({ line: index + 1, requirement: cells[0], status: cells[1], where: cells[2] });
  });
  return found;
}

const STATUSES = ['done', 'deviation', 'native', 'partly', 'missing', 'never shown'] as const;
type Status = (typeof STATUSES)[number];

/** The status a row is counted under: the first backticked word of its status cell. */
function statusOf(row: Row): Status | undefined {
  const first = /^`([^`]+)`/.exec(row.status)?.[1] ?? '';
  return STATUSES.find((s) => first === s || first.startsWith(`${s} `) || first.startsWith(`${s}(`));
}

/** Every file in src/ and tests/ by base name (the doc names many files by base name alone). */
function baseNames(): Set<string> {
  const names = new Set<string>();
  for (const dir of ['src', 'tests', 'scripts']) {
    for (const entry of readdirSync(join(ROOT, dir), { recursive: true }) as string[]) names.add(basename(entry));
  }
  return names;
}

const FILE = /(?<![\w/.-])((?:[\w.-]+\/)*[\w.-]+\.(?:tsx?|mjs|md|json|sql|swift|plist|xml|gradle|css|html|sh|webmanifest))(?![\w/])/g;
const FOLDER = /(?<![\w/.-])((?:src|tests|docs|scripts|ios|android|seed)\/(?:[\w.-]+\/)*)(?=[\s,;)]|$)/g;
const E2E = /(?<![\w/.-])e2e\/([\w-]+)/g;
const DECISION = /\bdecisions? (\d{4})(?:(?:, | and )(\d{4}))*/g;

/** What a citation names, as a path from the root, or undefined when it names any file of that base name. */
function resolveFile(cited: string): string | undefined {
  if (cited.startsWith('schema/')) return `src/server/db/${cited}`;
  if (cited.includes('/') && !/^(src|tests|docs|scripts|ios|android|seed|node_modules)\//.test(cited)) return undefined;
  return cited.includes('/') ? cited : undefined;
}

describe('docs/spec-coverage.md', () => {
  const table = rows();

  it('has a table of requirements and a status for every row', () => {
    expect(table.length).toBeGreaterThan(350);
    const unknown = table.filter((row) => !statusOf(row)).map((row) => `line ${row.line}: ${row.status}`);
    expect(unknown, 'rows whose status is none of done / deviation / native / partly / missing / never shown').toEqual([]);
  });

  it('sums up exactly what the table holds', () => {
    const counts = new Map<Status, number>(STATUSES.map((s) => [s, 0]));
    for (const row of table) {
      const status = statusOf(row);
      if (status) counts.set(status, (counts.get(status) ?? 0) + 1);
    }
    const summary = /\*\*Summary\*\* \((\d+) rows\):(.*)/.exec(DOC);
    expect(summary, 'the **Summary** line').toBeTruthy();
    expect(Number(summary?.[1]), 'rows in the summary').toBe(table.length);
    const said = new Map<string, number>();
    for (const [, n, status] of (summary?.[2] ?? '').matchAll(/\*\*(\d+) ([a-z ]+?)\*\*/g)) said.set(status, Number(n));
    for (const status of STATUSES) expect(said.get(status) ?? 0, `summary count of '${status}'`).toBe(counts.get(status));
  });

  it('cites only files, folders and decision records that exist', () => {
    const names = baseNames();
    const missing: string[] = [];
    for (const row of table) {
      const text = `${row.status} ${row.where}`;
      for (const [, cited] of text.matchAll(FILE)) {
        const path = resolveFile(cited);
        if (path ? !existsSync(join(ROOT, path)) : !names.has(basename(cited))) missing.push(`line ${row.line}: ${cited}`);
      }
      for (const [, folder] of row.where.matchAll(FOLDER)) if (!existsSync(join(ROOT, folder))) missing.push(`line ${row.line}: ${folder}`);
      for (const [, name] of row.where.matchAll(E2E)) if (!existsSync(join(ROOT, 'tests/e2e', `${name}.e2e.ts`))) missing.push(`line ${row.line}: e2e/${name}`);
      for (const match of text.matchAll(DECISION)) {
        for (const number of match[0].match(/\d{4}/g) ?? []) if (!DECISIONS.some((d) => d.startsWith(`${number}-`))) missing.push(`line ${row.line}: decision ${number}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it('gives every deviation its record, and never a section of ARCHITECTURE.md', () => {
    const unrecorded = table.filter((row) => statusOf(row) === 'deviation' && !/decisions? \d{4}|docs\/decisions\/\d{4}/.test(row.status + row.where)).map((row) => `line ${row.line}`);
    expect(unrecorded, 'deviations without a decision record').toEqual([]);
    expect(table.filter((row) => row.status.includes('ARCHITECTURE.md')).map((row) => `line ${row.line}`)).toEqual([]);
  });

  it('finds the quoted test names in the test files a row cites', () => {
    const wrong: string[] = [];
    for (const row of table) {
      // `file.test.ts ("a test's title…")`: the words before any ellipsis are in that file.
      for (const [, file, quoted] of row.where.matchAll(/([\w.-]+\.(?:test|e2e)\.tsx?|e2e\/[\w-]+) \(("[^)]*")\)/g)) {
        const path = file.startsWith('e2e/') ? [join(ROOT, 'tests/e2e', `${file.slice(4)}.e2e.ts`)] : findFiles(file);
        const source = path.map((p) => readFileSync(p, 'utf8')).join('\n');
        for (const [, title] of quoted.matchAll(/"([^"]+)"/g)) {
          const words = title
            .split('…')
            .map((part) => part.replace(/^[\s,;.]+|[\s,;.]+$/g, ''))
            .filter((part) => part.length >= 8);
          for (const part of words) if (!source.includes(part)) wrong.push(`line ${row.line}: ${file} "${part}"`);
        }
      }
    }
    expect(wrong).toEqual([]);
  });
});

const byName = new Map<string, string[]>();
function findFiles(name: string): string[] {
  if (byName.size === 0) {
    for (const dir of ['src', 'tests']) {
      for (const entry of readdirSync(join(ROOT, dir), { recursive: true }) as string[]) {
        const list = byName.get(basename(entry)) ?? [];
        list.push(join(ROOT, dir, entry));
        byName.set(basename(entry), list);
      }
    }
  }
  return byName.get(name) ?? [];
}
