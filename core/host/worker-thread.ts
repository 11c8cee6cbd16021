/**
 * Starts a worker thread on a module of this package, compiled (dist/, what ships) or from source
 * (tests and benchmarks run the TypeScript through tsx). Node 20 does not apply the loader hooks
 * that `--import tsx` registers to a worker's entry module, so a source module is loaded through
 * tsx's own import function (tsImport) from a one-line bootstrap instead.
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker, type WorkerOptions } from 'node:worker_threads';

/** The module `name` (without extension) beside `base` (an import.meta.url), as this build names its files. */
export function siblingModule(base: string, name: string): string {
  return new URL(`./${name}${base.endsWith('.ts') ? '.ts' : '.js'}`, base).href;
}

function tsxApi(from: string): string {
  const tsx = dirname(createRequire(from).resolve('tsx/package.json'));
  return pathToFileURL(join(tsx, 'dist', 'esm', 'api', 'index.mjs')).href;
}

/** A worker running the module at `url` (a file: URL of a .js or .ts module). */
export function startWorker(url: string, options: WorkerOptions): Worker {
  if (!url.endsWith('.ts')) return new Worker(new URL(url), options);
  const bootstrap = `import(${JSON.stringify(tsxApi(url))}).then((tsx) => tsx.tsImport(${JSON.stringify(url)}, ${JSON.stringify(url)}));`;
  return new Worker(bootstrap, { ...options, eval: true });
}
