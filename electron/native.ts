/**
 * Which better-sqlite3 addon the app loads. Node (tests, CLI) and Electron have different ABIs, so
 * the app never uses the Node copy in node_modules: packaging rebuilds a SEPARATE copy for Electron
 * (scripts/rebuild-electron-sqlite.js → build/native/electron/better_sqlite3.node, shipped as an
 * extra resource) and the engine receives its path through better-sqlite3's `nativeBinding` option.
 * See docs/packaging.md.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';

export const NATIVE_FILE = 'better_sqlite3.node';

export function electronNativeBinding(opts: { isPackaged: boolean; resourcesPath: string; appRoot: string; env?: NodeJS.ProcessEnv }): string | undefined {
  const override = opts.env?.['MNEMO_SQLITE_BINDING'];
  if (override && existsSync(override)) return override;
  const candidate = opts.isPackaged ? join(opts.resourcesPath, 'native', NATIVE_FILE) : join(opts.appRoot, 'build', 'native', 'electron', NATIVE_FILE);
  return existsSync(candidate) ? candidate : undefined;
}
