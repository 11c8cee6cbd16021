/**
 * The main window's options, kept pure so a unit test can assert every security switch: a
 * sandboxed renderer with context isolation, no Node integration, no webview tag, no remote
 * content ever loaded with privileges.
 */
import type { BrowserWindowConstructorOptions } from 'electron';

export interface Bounds {
  x?: number;
  y?: number;
  width: number;
  height: number;
}

export function mainWindowOptions(preloadPath: string, bounds: Bounds, dark = false): BrowserWindowConstructorOptions {
  return {
    ...bounds,
    minWidth: 900,
    minHeight: 600,
    show: false,
    title: 'Mnemo Workbench',
    backgroundColor: dark ? '#14171c' : '#f6f7f9',
    webPreferences: {
      preload: preloadPath,
      sandbox: true,
      contextIsolation: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webviewTag: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      experimentalFeatures: false,
      // Middle-click would open links in new windows; the window-open handler denies those anyway.
      disableBlinkFeatures: 'Auxclick',
      navigateOnDragDrop: false,
      spellcheck: false,
      safeDialogs: true,
      disableDialogs: false,
    },
  };
}
