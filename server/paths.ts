/** Where the package's files are, whether running from source (tsx) or from dist/. */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export function packageRoot(from: string = dirname(fileURLToPath(import.meta.url))): string {
  let dir = from;
  for (;;) {
    if (existsSync(join(dir, 'package.json'))) return dir;
    const up = dirname(dir);
    if (up === dir) return from;
    dir = up;
  }
}

/** The built renderer (vite build output). */
export function rendererDir(): string {
  return join(packageRoot(), 'dist', 'renderer');
}
