/** The packaging config cannot run here (it downloads Electron), so its rules are checked as data. */
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';

const require = createRequire(import.meta.url);
// eslint-disable-next-line @typescript-eslint/no-explicit-any
const config: any = require('../../build/electron-builder.cjs');
const pkg = JSON.parse(readFileSync('package.json', 'utf8'));

describe('electron-builder config', () => {
  it('targets AppImage and deb, dmg and nsis', () => {
    expect(config.linux.target).toEqual(expect.arrayContaining(['AppImage', 'deb']));
    expect(config.mac.target).toContain('dmg');
    expect(config.win.target).toContain('nsis');
  });

  it('never rebuilds native modules in place and unpacks them from the asar', () => {
    expect(config.npmRebuild).toBe(false);
    expect(config.nodeGypRebuild).toBe(false);
    expect(config.buildDependenciesFromSource).toBe(false);
    expect(config.asar).toBe(true);
    expect(config.asarUnpack).toEqual(expect.arrayContaining(['**/node_modules/better-sqlite3/**', '**/*.node']));
  });

  it('ships the separately built Electron addon where electron/native.ts looks for it', () => {
    expect(config.extraResources).toEqual(expect.arrayContaining([expect.objectContaining({ from: 'build/native/electron', to: 'native' })]));
    const native = readFileSync('electron/native.ts', 'utf8');
    expect(native).toMatch(/join\(opts\.resourcesPath, 'native', NATIVE_FILE\)/);
    expect(native).toMatch(/'build', 'native', 'electron'/);
  });

  it('starts the compiled main process, with the sandboxed preload next to it, and registers mnemo://', () => {
    expect(config.extraMetadata.main).toBe('dist/electron/main.js');
    expect(pkg.main).toBe('dist/electron/main.js');
    expect(existsSync('electron/main.ts')).toBe(true);
    expect(existsSync('electron/preload.cts')).toBe(true); // compiles to dist/electron/preload.cjs
    expect(config.files).toEqual(expect.arrayContaining(['dist/**/*', 'package.json']));
    expect(config.protocols[0].schemes).toContain('mnemo');
  });

  it('locks the fuses that would let the app run as plain Node or load code from outside the asar', () => {
    expect(config.electronFuses).toMatchObject({ runAsNode: false, enableNodeOptionsEnvironmentVariable: false, enableNodeCliInspectArguments: false, onlyLoadAppFromAsar: true });
  });

  it('is wired to npm scripts', () => {
    expect(pkg.scripts['dist']).toMatch(/electron-builder --config build\/electron-builder\.cjs/);
    expect(pkg.scripts['rebuild:electron-sqlite']).toBe('node scripts/rebuild-electron-sqlite.js');
  });
});
