#!/usr/bin/env node
// The `mnemo` command. Runs the compiled CLI; from a source checkout without a build it says how to build.
import { existsSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { dirname, join } from 'node:path';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const entry = join(root, 'dist', 'cli', 'main.js');
if (!existsSync(entry)) {
  process.stderr.write('mnemo: the CLI is not built yet; run "npm run build:node" (npm install does it for you)\n');
  process.exit(1);
}
const { main } = await import(pathToFileURL(entry).href);
process.exitCode = await main(process.argv.slice(2));
