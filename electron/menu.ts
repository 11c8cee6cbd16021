/** The application menu as a pure template (tested): DevTools appear only in development. */
import type { MenuItemConstructorOptions } from 'electron';
import { basename } from 'node:path';

export interface MenuActions {
  openStore(): void;
  openRecent(path: string): void;
  newDemoStore(): void;
  /** Fleet: pick a folder of stores to compare. */
  openFleet(): void;
  reload(): void;
  toggleDevTools(): void;
  navigate(route: string): void;
}

export function menuTemplate(opts: { isDev: boolean; isMac: boolean; recent: string[]; actions: MenuActions }): MenuItemConstructorOptions[] {
  const { actions } = opts;
  const file: MenuItemConstructorOptions = {
    label: 'File',
    submenu: [
      { label: 'Open Store…', accelerator: 'CmdOrCtrl+O', click: () => actions.openStore() },
      {
        label: 'Open Recent',
        submenu: opts.recent.length ? opts.recent.map((p) => ({ label: `${basename(p)} — ${p}`, click: () => actions.openRecent(p) })) : [{ label: 'No recent stores', enabled: false }],
      },
      { label: 'New Demo Store…', click: () => actions.newDemoStore() },
      { label: 'Open Folder of Stores…', click: () => actions.openFleet() },
      { type: 'separator' },
      opts.isMac ? { role: 'close' } : { role: 'quit' },
    ],
  };
  const view: MenuItemConstructorOptions = {
    label: 'View',
    submenu: [
      { label: 'Memories', accelerator: 'CmdOrCtrl+1', click: () => actions.navigate('/memories') },
      { label: 'Graph', accelerator: 'CmdOrCtrl+2', click: () => actions.navigate('/graph') },
      { label: 'Recall Console', accelerator: 'CmdOrCtrl+3', click: () => actions.navigate('/recall') },
      { label: 'Access Audit', accelerator: 'CmdOrCtrl+4', click: () => actions.navigate('/audit') },
      { label: 'Overview', accelerator: 'CmdOrCtrl+5', click: () => actions.navigate('/overview') },
      { label: 'Reflection', accelerator: 'CmdOrCtrl+6', click: () => actions.navigate('/reflection') },
      { label: 'History', accelerator: 'CmdOrCtrl+7', click: () => actions.navigate('/history') },
      { label: 'Beliefs', accelerator: 'CmdOrCtrl+8', click: () => actions.navigate('/beliefs') },
      { label: 'Fleet', accelerator: 'CmdOrCtrl+9', click: () => actions.navigate('/fleet') },
      { label: 'Intents and Todos', click: () => actions.navigate('/prospective') },
      { type: 'separator' },
      { label: 'Reload', accelerator: 'CmdOrCtrl+R', click: () => actions.reload() },
      ...(opts.isDev ? ([{ label: 'Toggle DevTools', accelerator: 'CmdOrCtrl+Shift+I', click: () => actions.toggleDevTools() }] as MenuItemConstructorOptions[]) : []),
      { type: 'separator' },
      { role: 'resetZoom' },
      { role: 'zoomIn' },
      { role: 'zoomOut' },
      { role: 'togglefullscreen' },
    ],
  };
  const edit: MenuItemConstructorOptions = { role: 'editMenu' };
  const app: MenuItemConstructorOptions[] = opts.isMac ? [{ role: 'appMenu' }] : [];
  return [...app, file, edit, view, { role: 'windowMenu' }];
}
