#!/usr/bin/env node
// `npm start [-- <store>]`: builds what is stale, then opens the workbench in Electron on the given
// store, the last store used, or a demo store. The Electron binary is fetched on first start
// (electron 42+ no longer downloads it at npm install); where Electron cannot start (no binary, no
// display, Node < 22.12 for the download, or it fails while starting), this says why and falls
// back to browser mode on 127.0.0.1 (`mnemo serve`), printing the URL to open.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { displayMissing, failedWhileStarting, nodeCanFetchElectron } from './lib/electron-start.js';
import { buildStale } from './lib/stale-build.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

function userDataDir() {
  // Electron's app.getPath('userData') for an app named "mnemo".
  if (process.platform === 'darwin') return join(homedir(), 'Library', 'Application Support', 'mnemo');
  if (process.platform === 'win32') return join(process.env.APPDATA ?? join(homedir(), 'AppData', 'Roaming'), 'mnemo');
  return join(process.env.XDG_CONFIG_HOME ?? join(homedir(), '.config'), 'mnemo');
}

function lastStore() {
  try {
    const state = JSON.parse(readFileSync(join(userDataDir(), 'workbench-state.json'), 'utf8'));
    return (state.recent ?? []).find((p) => typeof p === 'string' && existsSync(p)) ?? null;
  } catch {
    return null;
  }
}

/** The Electron binary, or the reason there is none (never triggers electron's download). */
function electronBinary() {
  const dir = join(root, 'node_modules', 'electron');
  if (!existsSync(join(dir, 'package.json'))) return { reason: 'the electron package is not installed' };
  const pathFile = join(dir, 'path.txt');
  if (!existsSync(pathFile)) return { reason: 'the Electron binary was not downloaded when electron was installed (no network, or ELECTRON_SKIP_BINARY_DOWNLOAD)' };
  const bin = join(dir, 'dist', readFileSync(pathFile, 'utf8').trim());
  if (!existsSync(bin)) return { reason: `the Electron binary is missing at ${bin}` };
  return { bin };
}

/**
 * `npm start -- [store] [--port N]`: the store to open, and the port browser mode binds on
 * 127.0.0.1 (default: a free one). The Electron window serves no port, so there it is only noted.
 */
function startArgs(argv) {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, options: { port: { type: 'string' } }, allowPositionals: true, strict: true });
  } catch (err) {
    console.error(`${err.message}\nusage: npm start -- [store.sqlite] [--port N]`);
    process.exit(2);
  }
  const raw = parsed.values.port;
  if (raw !== undefined && !(/^\d+$/.test(raw) && Number(raw) >= 1 && Number(raw) <= 65535)) {
    console.error(`--port ${raw}: give a port number from 1 to 65535 (or leave --port out for a free one)`);
    process.exit(2);
  }
  return { store: parsed.positionals[0] ?? process.env.MNEMO_STORE ?? null, port: raw === undefined ? null : Number(raw) };
}

const { store: argStore, port: argPort } = startArgs(process.argv.slice(2));

const build = buildStale(root, ['node', 'renderer'], { onBuild: (name) => console.log(`building the ${name === 'node' ? 'engine, CLI and shell' : 'workbench UI'} (sources changed)…`) });
if (!build.ok) {
  console.error('the build failed; fix the errors above and run npm start again');
  process.exit(1);
}

/** The Electron binary, fetched on first start where that can work, or the reason there is none. */
function electronForThisMachine() {
  const noDisplay = displayMissing(process.platform, process.env);
  if (noDisplay) return { reason: noDisplay };
  const electron = electronBinary();
  if (electron.bin || !existsSync(join(root, 'node_modules', 'electron', 'install.js'))) return electron;
  if (!nodeCanFetchElectron(process.version)) return { reason: `${electron.reason}, and fetching it needs Node.js >= 22.12 (this is ${process.version})` };
  // Electron 42+ no longer downloads its binary at npm install; fetch it once, on first start.
  console.log('fetching the Electron binary (first start only)…');
  const fetched = spawnSync(process.execPath, [join(root, 'node_modules', 'electron', 'install.js')], { cwd: root, stdio: 'pipe', timeout: 180_000 });
  const after = electronBinary();
  if (after.bin) return after;
  const why = `${fetched.stderr ?? ''}`.split('\n').find((l) => l.trim()) ?? (fetched.error ? fetched.error.message : 'unknown error');
  return { reason: `${after.reason}; downloading it failed (${why.trim()})` };
}

function browserMode(reason) {
  console.log(`Electron cannot start here: ${reason}.`);
  console.log('Falling back to browser mode on 127.0.0.1: open the URL below in a browser on this machine.');
  let store = argStore ?? lastStore();
  if (!store) {
    const dir = userDataDir();
    mkdirSync(dir, { recursive: true });
    store = join(dir, 'demo.sqlite');
    if (!existsSync(store)) {
      console.log(`creating a demo store at ${store}…`);
      const demo = spawnSync(process.execPath, [join(root, 'bin', 'mnemo.js'), 'demo', store, '--size', '2000'], { stdio: 'inherit' });
      if (demo.status !== 0) process.exit(demo.status ?? 1);
    }
  }
  const serve = spawn(process.execPath, [join(root, 'bin', 'mnemo.js'), 'serve', store, ...(argPort === null ? [] : ['--port', String(argPort)])], { cwd: root, stdio: 'inherit' });
  const stop = () => serve.kill('SIGINT');
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  serve.on('exit', (code) => process.exit(code ?? 0));
}

const electron = electronForThisMachine();
if (electron.bin) {
  if (argPort !== null) console.log(`--port ${argPort} applies to browser mode; the Electron window serves no port`);
  const args = [root, ...(argStore ? ['--store', argStore] : [])];
  const startedAt = Date.now();
  const child = spawn(electron.bin, args, { cwd: root, stdio: 'inherit', env: { ...process.env, NODE_ENV: process.env.NODE_ENV ?? 'development' } });
  let fellBack = false;
  const fallBack = (reason) => {
    if (fellBack) return;
    fellBack = true;
    browserMode(reason);
  };
  child.on('error', (err) => fallBack(`launching Electron failed (${err.message})`));
  child.on('exit', (code, signal) => {
    if (fellBack) return;
    if (failedWhileStarting({ code, signal, elapsedMs: Date.now() - startedAt })) fallBack(`Electron exited with code ${code} while starting (its message is above)`);
    else process.exit(code ?? 0);
  });
} else {
  browserMode(electron.reason);
}
