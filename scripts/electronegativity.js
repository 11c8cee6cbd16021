#!/usr/bin/env node
// Security scan of the Electron shell with @doyensec/electronegativity. Scans the main-process and
// preload sources plus the renderer's index.html (where the CSP meta tag lives) and exits 1 on any
// HIGH or MEDIUM finding. A reviewed false positive is silenced with an `eng-disable <CHECK>`
// comment at its line, next to a comment that says why. CI runs this through
// test/cli/electronegativity.test.ts. The scanner's network lookups (translations, Electron release
// notes) are disabled by scripts/electronegativity-offline.cjs: CI has no internet, and the
// Electron version is pinned in package.json instead.
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const stage = mkdtempSync(join(tmpdir(), 'mnemo-eneg-'));
mkdirSync(join(stage, 'electron'));
for (const f of readdirSync(join(root, 'electron'))) if (/\.(ts|cts)$/.test(f)) copyFileSync(join(root, 'electron', f), join(stage, 'electron', f));
mkdirSync(join(stage, 'renderer'));
copyFileSync(join(root, 'renderer', 'index.html'), join(stage, 'renderer', 'index.html'));
copyFileSync(join(root, 'package.json'), join(stage, 'package.json'));
const out = join(stage, 'report.csv');
const cli = join(root, 'node_modules', '@doyensec', 'electronegativity', 'dist', 'index.js');
const electronVersion = JSON.parse(readFileSync(join(root, 'node_modules', 'electron', 'package.json'), 'utf8')).version;
const r = spawnSync(process.execPath, ['--require', join(root, 'scripts', 'electronegativity-offline.cjs'), cli, '-i', stage, '-r', '-v', 'false', '-e', electronVersion, '-o', out], {
  encoding: 'utf8',
  env: { ...process.env, LANG: 'en_US.UTF-8' },
});
let csv = '';
try {
  csv = readFileSync(out, 'utf8');
} catch {
  console.error(`electronegativity produced no report (exit ${r.status}):\n${r.stdout}\n${r.stderr}`);
  process.exit(2);
} finally {
  rmSync(stage, { recursive: true, force: true });
}
const rows = csv
  .trim()
  .split('\n')
  .slice(1)
  .filter(Boolean)
  .map((line) => {
    const cells = line.match(/("([^"]|"")*"|[^,]*)(,|$)/g).map((c) => c.replace(/,$/, '').replace(/^"|"$/g, ''));
    return { check: cells[0], severity: cells[1], confidence: cells[2], file: cells[3], location: cells[4], sample: cells[5] };
  });
const blocking = rows.filter((x) => x.severity === 'HIGH' || x.severity === 'MEDIUM');
const json = process.argv.includes('--json');
if (json) console.log(JSON.stringify({ findings: rows, blocking: blocking.length }));
else {
  for (const x of rows) console.log(`${x.severity.padEnd(13)} ${x.confidence.padEnd(9)} ${x.check}  ${x.file}:${x.location}`);
  console.log(`${rows.length} findings, ${blocking.length} HIGH or MEDIUM`);
}
process.exit(blocking.length ? 1 : 0);
