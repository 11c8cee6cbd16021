/**
 * The start every screenshot script on a big store shares: its arguments (a store to copy, a
 * folder for the images), the copy, a browser-mode workbench on it at a fixed clock, and `save`,
 * which writes one image and prints where, when and whatever `note` says of the page.
 */
import { copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from './fixture.js';
import { openWorkbench, type Workbench } from './workbench.js';

export const SHOTS_NOW = 1_780_000_000;
/** Long enough for any phase of a job on the 100k demo store. */
export const SHOTS_LONG_MS = 3_600_000;

export async function startScreenshots(script: string, note?: (wb: Workbench) => Promise<string>): Promise<{ wb: Workbench; save: (name: string) => Promise<void> }> {
  const [from, outDir] = process.argv.slice(2);
  if (!from || !outDir) throw new Error(`usage: node --import tsx scripts/${script} <store.sqlite> <out-dir>`);
  mkdirSync(outDir, { recursive: true });
  const db = join(tempDir('mnemo-shots-'), 'store.sqlite');
  copyFileSync(from, db);
  const wb = await openWorkbench(db, { now: SHOTS_NOW, width: 1440, height: 900 });
  const save = async (name: string) => {
    await wb.page.screenshot({ path: join(outDir, `${name}.png`) });
    console.log(`${join(outDir, name)}.png  ${new Date().toISOString()}${note ? `  ${await note(wb)}` : ''}`);
  };
  return { wb, save };
}
