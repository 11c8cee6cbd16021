/**
 * electron-builder configuration: AppImage + deb, dmg, nsis.
 *
 * better-sqlite3 is a native addon whose ABI differs between Node (tests, CLI) and Electron. The
 * packaging step must never rebuild the Node copy in node_modules in place (that breaks `npm test`
 * and the CLI), so `npmRebuild` is off and the Electron build of the addon is made separately by
 * scripts/rebuild-electron-sqlite.js into build/native/electron/, shipped as an extra resource, and
 * handed to better-sqlite3 through its `nativeBinding` option (electron/native.ts). Native modules
 * are unpacked from the asar, because a .node file cannot be dlopen'ed from inside an archive.
 * See docs/packaging.md.
 */
module.exports = {
  appId: 'dev.mnemo.workbench',
  productName: 'Mnemo Workbench',
  copyright: 'Apache-2.0',
  directories: { output: 'release', buildResources: 'resources' },
  files: ['dist/**/*', 'bin/**/*', 'package.json', '!dist/**/*.map', '!dist/**/*.d.ts', '!dist/**/*.d.cts'],
  extraMetadata: { main: 'dist/electron/main.js' },
  asar: true,
  asarUnpack: ['**/node_modules/better-sqlite3/**', '**/*.node'],
  npmRebuild: false,
  nodeGypRebuild: false,
  buildDependenciesFromSource: false,
  extraResources: [{ from: 'build/native/electron', to: 'native', filter: ['*.node'] }],
  protocols: [{ name: 'Mnemo Workbench', schemes: ['mnemo'] }],
  electronFuses: {
    runAsNode: false,
    enableCookieEncryption: true,
    enableNodeOptionsEnvironmentVariable: false,
    enableNodeCliInspectArguments: false,
    enableEmbeddedAsarIntegrityValidation: true,
    onlyLoadAppFromAsar: true,
  },
  linux: {
    target: ['AppImage', 'deb'],
    category: 'Development',
    synopsis: 'Inspect, explain and curate AI agent memory stores',
    mimeTypes: ['x-scheme-handler/mnemo'],
  },
  deb: { depends: ['libnss3', 'libgtk-3-0', 'libxss1', 'libasound2'] },
  mac: { target: ['dmg'], category: 'public.app-category.developer-tools', hardenedRuntime: true },
  dmg: { writeUpdateInfo: false },
  win: { target: ['nsis'] },
  nsis: { oneClick: false, perMachine: false, allowToChangeInstallationDirectory: true },
};
