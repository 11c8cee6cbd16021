/**
 * Runs once before the suite. The browser-mode e2e tests need the built renderer; building it
 * here (only when its sources changed, by the same rule as `npm start`) keeps `npm test` a single
 * command on a fresh checkout.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { buildStale } from '../../scripts/lib/stale-build.js';

export default function setup(): void {
  const root = process.cwd();
  if (!existsSync(join(root, 'renderer', 'index.html'))) return;
  const result = buildStale(root, ['renderer']);
  if (!result.ok) throw new Error('building the renderer failed (see the output above)');
}
