#!/usr/bin/env node
// Runs one benchmark: `npm run bench -- <name> [args]` → `bench/<name>.ts` under tsx.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const [name, ...args] = process.argv.slice(2);
const available = existsSync(join(root, 'bench')) ? readdirSync(join(root, 'bench')).filter((f) => f.endsWith('.ts')).map((f) => f.slice(0, -3)) : [];
if (!name || !available.includes(name)) {
  process.stderr.write(`usage: npm run bench -- <name> [args]\navailable: ${available.join(', ') || '(none)'}\n`);
  process.exit(2);
}
const r = spawnSync(process.execPath, ['--import', 'tsx', join(root, 'bench', `${name}.ts`), ...args], { stdio: 'inherit', cwd: root });
process.exit(r.status ?? 1);
