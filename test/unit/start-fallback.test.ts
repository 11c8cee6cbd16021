import { describe, expect, it } from 'vitest';
import { displayMissing, failedWhileStarting, nodeCanFetchElectron, STARTUP_WINDOW_MS } from '../../scripts/lib/electron-start.js';

describe('npm start: when Electron cannot start, browser mode takes over', () => {
  it('only Node 22.12 and newer fetch the Electron binary (what Electron 45 and its tools declare)', () => {
    expect(nodeCanFetchElectron('v20.19.0')).toBe(false);
    expect(nodeCanFetchElectron('v22.11.9')).toBe(false);
    expect(nodeCanFetchElectron('v22.12.0')).toBe(true);
    expect(nodeCanFetchElectron('v24.1.0')).toBe(true);
  });

  it('a Linux machine with no display falls back before trying; a display or another platform lets Electron try', () => {
    expect(displayMissing('linux', {})).toMatch(/no display/);
    expect(displayMissing('linux', { DISPLAY: ':0' })).toBeNull();
    expect(displayMissing('linux', { WAYLAND_DISPLAY: 'wayland-0' })).toBeNull();
    expect(displayMissing('darwin', {})).toBeNull();
  });

  it('an Electron that fails while starting hands over to browser mode; a normal quit or a later crash does not', () => {
    expect(failedWhileStarting({ code: 1, signal: null, elapsedMs: 300 })).toBe(true);
    expect(failedWhileStarting({ code: 0, signal: null, elapsedMs: 300 })).toBe(false);
    expect(failedWhileStarting({ code: null, signal: 'SIGINT', elapsedMs: 300 })).toBe(false);
    expect(failedWhileStarting({ code: 1, signal: null, elapsedMs: STARTUP_WINDOW_MS + 1 })).toBe(false);
  });
});
