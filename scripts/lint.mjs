/**
 * Project guards that a type checker does not catch (STYLE.md): no climbing relative imports,
 * no focused tests, no explicit `any`, no delete/update without a where clause.
 * Prints each finding as file:line and exits 1 when there is one.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

const ROOTS = ['src', 'tests', 'scripts'];
const RULES = [
  { name: 'relative import climbing two levels (use #shared/#server/#web/#tests)', re: /from\s+['"]\.\.\/\.\.\//, skip: /^scripts\// },
  { name: 'focused test (.only)', re: /\b(it|test|describe)\.only\(/ },
  { name: 'explicit any', re: /:\s*any\b|<any>|as any\b/ },
  { name: 'delete without where (enforce-delete-with-where)', re: /\b(db|tx|database)\.delete\([^)]*\)\s*;/ },
  { name: 'update without where (enforce-update-with-where)', re: /\b(db|tx|database)\.update\([^)]*\)\s*\.set\((?![^;]*\.where\()[^;]*;/ },
];

function* files(dir) {
  for (const entry of readdirSync(dir)) {
    if (entry === 'node_modules' || entry === 'migrations') continue;
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) yield* files(path);
    else if (/\.(ts|tsx|mjs)$/.test(entry)) yield path;
  }
}

const findings = [];
for (const root of ROOTS) {
  for (const file of files(root)) {
    if (file === 'scripts/lint.mjs') continue;
    const lines = readFileSync(file, 'utf8').split('\n');
    lines.forEach((line, index) => {
      const trimmed = line.trim();
      if (trimmed.startsWith('*') || trimmed.startsWith('//') || trimmed.startsWith('/*')) return; // comments
      for (const rule of RULES) {
        if (rule.skip?.test(file)) continue;
        if (rule.re.test(line)) findings.push(`${file}:${index + 1}: ${rule.name}\n    ${line.trim()}`);
      }
    });
  }
}

if (findings.length) {
  console.error(findings.join('\n'));
  console.error(`\n${findings.length} lint finding(s)`);
  process.exit(1);
}
console.log('lint: no findings');
