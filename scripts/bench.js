#!/usr/bin/env node
// `npm run bench -- <name> [args]` runs bench/<name>.ts; with no name it lists the benchmarks.
// Benchmarks print figures (medians, and ratios against a baseline measured in the same run);
// with --json their last line is one JSON object.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const benchDir = join(root, 'bench');
const available = existsSync(benchDir)
  ? readdirSync(benchDir)
      .filter((f) => f.endsWith('.ts'))
      .map((f) => f.slice(0, -3))
  : [];
const [name, ...args] = process.argv.slice(2);
if (!name || name === '--help') {
  console.log(`usage: npm run bench -- <name> [args]\nbenchmarks: ${available.join(', ') || '(none)'}`);
  process.exit(name ? 0 : 2);
}
if (!available.includes(name)) {
  console.error(`unknown benchmark ${JSON.stringify(name)}; available: ${available.join(', ')}`);
  process.exit(2);
}
const r = spawnSync(process.execPath, ['--import', 'tsx', join(benchDir, `${name}.ts`), ...args], { stdio: 'inherit', cwd: root });
process.exit(r.status ?? 1);
