#!/usr/bin/env node
// Builds better-sqlite3 for Electron's ABI into build/native/electron/better_sqlite3.node WITHOUT
// touching node_modules (the Node copy the tests and the CLI load). It copies the package into a
// scratch folder and runs @electron/rebuild there. Needs network access to Electron's headers.
import { cpSync, existsSync, mkdirSync, mkdtempSync, copyFileSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { spawnSync } from 'node:child_process';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const electronVersion = JSON.parse(readFileSync(join(root, 'node_modules', 'electron', 'package.json'), 'utf8')).version;
const scratch = mkdtempSync(join(tmpdir(), 'mnemo-sqlite-electron-'));
const pkgDir = join(scratch, 'node_modules', 'better-sqlite3');
cpSync(join(root, 'node_modules', 'better-sqlite3'), pkgDir, { recursive: true, filter: (src) => !src.includes(`${join('build', 'Release')}`) });
for (const dep of ['bindings', 'file-uri-to-path']) {
  const from = join(root, 'node_modules', dep);
  if (existsSync(from)) cpSync(from, join(scratch, 'node_modules', dep), { recursive: true });
}
const rebuild = join(root, 'node_modules', '.bin', process.platform === 'win32' ? 'electron-rebuild.cmd' : 'electron-rebuild');
const r = spawnSync(rebuild, ['--version', electronVersion, '--module-dir', scratch, '--only', 'better-sqlite3', '--force'], { stdio: 'inherit' });
if (r.status !== 0) {
  console.error('electron-rebuild failed; the app cannot be packaged with a working SQLite addon');
  process.exit(r.status ?? 1);
}
const out = join(root, 'build', 'native', 'electron');
mkdirSync(out, { recursive: true });
copyFileSync(join(pkgDir, 'build', 'Release', 'better_sqlite3.node'), join(out, 'better_sqlite3.node'));
rmSync(scratch, { recursive: true, force: true });
console.log(`better-sqlite3 for Electron ${electronVersion} → ${join(out, 'better_sqlite3.node')}`);
