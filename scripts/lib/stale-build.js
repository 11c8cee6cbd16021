// Builds only the outputs whose sources changed since they were built: `npm start` and the e2e
// tests' global setup share it, so an unchanged checkout starts without a rebuild.
// Plain JavaScript because `npm start` runs it before anything is compiled.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Each output is judged by one file that its build always rewrites last or not at all (tsc writes
 * every file on every run; vite empties dist/renderer first). A dependency change (lockfile) or a
 * build config change makes both stale.
 */
export const BUILD_TARGETS = {
  node: {
    inputs: ['core', 'cli', 'electron', 'server', join('bench', 'locomo'), 'tsconfig.node.json', 'tsconfig.base.json', 'package-lock.json'],
    marker: join('dist', 'cli', 'main.js'),
    command: (root) => [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.node.json'],
  },
  renderer: {
    inputs: ['renderer', 'vite.config.ts', 'tsconfig.web.json', 'package-lock.json'],
    marker: join('dist', 'renderer', 'index.html'),
    command: (root) => [join(root, 'node_modules', 'vite', 'bin', 'vite.js'), 'build', '--logLevel', 'warn'],
  },
};

/** The newest modification time (ms) of a file or of any file under a directory; 0 if absent. */
export function newestMtime(path) {
  if (!existsSync(path)) return 0;
  const st = statSync(path);
  if (!st.isDirectory()) return st.mtimeMs;
  let newest = 0;
  for (const entry of readdirSync(path)) newest = Math.max(newest, newestMtime(join(path, entry)));
  return newest;
}

/** True when the target's marker is missing or older than any of its inputs. */
export function isStale(root, target) {
  const marker = join(root, target.marker);
  if (!existsSync(marker)) return true;
  const builtAt = statSync(marker).mtimeMs;
  return target.inputs.some((input) => newestMtime(join(root, input)) > builtAt);
}

/**
 * Builds the named targets that are stale, in order; stops at the first failure. A failed build
 * removes its marker, because tsc writes its outputs even when it reports errors and the next run
 * must not take them for a good build.
 */
export function buildStale(root, names, opts = {}) {
  const run = opts.run ?? ((argv) => spawnSync(process.execPath, argv, { cwd: root, stdio: 'inherit' }).status === 0);
  const built = [];
  for (const name of names) {
    const target = BUILD_TARGETS[name];
    if (!isStale(root, target)) continue;
    opts.onBuild?.(name);
    if (!run(target.command(root))) {
      rmSync(join(root, target.marker), { force: true });
      return { ok: false, built, failed: name };
    }
    built.push(name);
  }
  return { ok: true, built };
}
