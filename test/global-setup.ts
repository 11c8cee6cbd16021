/**
 * Runs once before the suite. The browser-mode e2e tests need the built renderer; building it
 * here keeps `npm test` a single command on a fresh checkout.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

function newestMtime(dir: string): number {
  if (!existsSync(dir)) return 0;
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(p) : statSync(p).mtimeMs);
  }
  return newest;
}

export default function setup(): void {
  const root = process.cwd();
  const built = join(root, 'dist', 'renderer', 'index.html');
  if (!existsSync(join(root, 'renderer', 'index.html'))) return;
  const stale = !existsSync(built) || newestMtime(join(root, 'renderer')) > statSync(built).mtimeMs;
  if (stale) execFileSync(process.execPath, [join(root, 'node_modules', 'vite', 'bin', 'vite.js'), 'build', '--logLevel', 'warn'], { cwd: root, stdio: 'inherit' });
}
