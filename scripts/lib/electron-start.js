// The decisions `npm start` makes about Electron, kept apart from the spawning so they can be tested.
// Plain JavaScript because `npm start` runs it before anything is compiled.

/** Electron 45's downloader and tooling declare Node >= 22.12; the binary itself brings its own runtime. */
export function nodeCanFetchElectron(nodeVersion) {
  const [major = 0, minor = 0] = nodeVersion.replace(/^v/, '').split('.').map(Number);
  return major > 22 || (major === 22 && minor >= 12);
}

/** Why no Electron window can open here, known before trying; null when one may. */
export function displayMissing(platform, env) {
  if (platform !== 'linux' || env.DISPLAY || env.WAYLAND_DISPLAY) return null;
  return 'there is no display to open a window on (neither DISPLAY nor WAYLAND_DISPLAY is set)';
}

// An Electron that fails this soon never opened its window (missing system libraries, a display
// that refuses it); after that, its exit is the user closing the app.
export const STARTUP_WINDOW_MS = 15_000;

/** True when Electron's exit means it could not start (so browser mode should take over). */
export function failedWhileStarting(exit) {
  return exit.code !== 0 && exit.signal === null && exit.elapsedMs < STARTUP_WINDOW_MS;
}
