/**
 * The Electron main process: one sandboxed window on the built renderer, menus and file dialogs,
 * live refresh, window state, single instance and mnemo:// deep links. The engine is not here: it
 * runs in an engine host's worker threads (core/host/engine-host.ts), and this process only routes
 * IPC to it, so a long job never freezes the window (moving, menus, repaint). The lint rule
 * `electron-no-engine` keeps it so: nothing in electron/ imports the engine at run time.
 */
import { app, BrowserWindow, dialog, ipcMain, Menu, protocol, session as electronSession, shell } from 'electron';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { EngineHost } from '../core/host/engine-host.js';
import { PRIVILEGED_SCHEME, registerAppProtocol } from './app-protocol.js';
import { deepLinkFromArgv, parseDeepLink } from './deep-link.js';
import { IPC_EVENT, registerIpc } from './ipc.js';
import { menuTemplate } from './menu.js';
import { electronNativeBinding } from './native.js';
import { APP_URL, denyAllPermissions, hardenWebContents } from './security.js';
import { mainWindowOptions } from './window-options.js';
import { addRecent, loadState, saveState, type ShellState } from './window-state.js';

const here = dirname(fileURLToPath(import.meta.url));
const appRoot = join(here, '..', '..');
const rendererRoot = join(appRoot, 'dist', 'renderer');
const preloadPath = join(here, 'preload.cjs');
const isDev = !app.isPackaged && process.env['NODE_ENV'] !== 'production';

protocol.registerSchemesAsPrivileged([PRIVILEGED_SCHEME]);

let win: BrowserWindow | null = null;
let state: ShellState;
/** A notice about a link refused before the window existed, shown once it does. */
let pendingNotice: string | null = null;
let pendingRoute: string | null = deepLinkRoute(deepLinkFromArgv(process.argv));

/** The engine's workers: a light one for the views' counts and lists, one for recall and its indexes, one for long jobs. */
let host: EngineHost | null = null;

function startHost(): Promise<EngineHost> {
  const nativeBinding = electronNativeBinding({ isPackaged: app.isPackaged, resourcesPath: process.resourcesPath, appRoot, env: process.env });
  return EngineHost.start({
    lanes: { light: 1, index: 1, jobs: 1 },
    session: {
      reader: { owner: 'workbench', session_ref: null },
      // People watch this process: it leaves index snapshots to the agents writing beside it (index-snapshots.ts).
      engine: { watched: true, ...(nativeBinding ? { nativeBinding } : {}) },
      // Stores and fleet folders come only from this process's dialogs, never from a path the page sends.
      shell: { chooseFolder: true, fleetPathFromApi: false, paths: { kind: 'dialog' } },
    },
    watch: { lane: 'light', pollMs: 400 },
    chooseFolder: (title) => chooseFolder(title),
    onWarning: (m) => console.warn(`mnemo: ${m}`),
  });
}

function send(payload: unknown): void {
  win?.webContents.send(IPC_EVENT, payload);
}

/** The route of a mnemo:// link; a malformed one opens nothing and the user is told why (the app keeps running). */
function deepLinkRoute(raw: string | null): string | null {
  if (!raw) return null;
  const link = parseDeepLink(raw);
  if (link.ok) return link.route;
  const message = `The link ${raw.slice(0, 200)} was not opened: ${link.reason}.`;
  console.warn(`mnemo: ${message}`);
  if (win) showLinkNotice(win, message);
  else pendingNotice = message;
  return null;
}

function showLinkNotice(w: BrowserWindow, message: string): void {
  void dialog.showMessageBox(w, { type: 'warning', title: 'Link not opened', message }).catch(() => undefined);
}

function navigate(route: string): void {
  if (win) send({ type: 'navigate', route });
  else pendingRoute = route;
}

/** The host once it has started; a menu used before that is told to wait a moment. */
function startedHost(): EngineHost | null {
  if (!host) dialog.showErrorBox('Still starting', 'The engine is still starting; try again in a moment.');
  return host;
}

async function openStore(path: string, opts: { create?: boolean } = {}): Promise<boolean> {
  const h = startedHost();
  if (!h) return false;
  try {
    await h.open(path, { create: opts.create ?? false });
  } catch (err) {
    dialog.showErrorBox('Cannot open store', (err as Error).message);
    return false;
  }
  state = addRecent(state, path);
  saveState(app.getPath('userData'), state);
  send({ type: 'store', path });
  buildMenu();
  win?.setTitle(`Mnemo Workbench — ${path}`);
  return true;
}

function demoStorePath(): string {
  return join(app.getPath('userData'), 'demo.sqlite');
}

async function createDemo(path: string, size = 2000): Promise<boolean> {
  if (!(await openStore(path, { create: true }))) return false;
  try {
    await host?.fillDemo(size, Date.now() / 1000);
  } catch (err) {
    dialog.showErrorBox('Cannot create the demo store', (err as Error).message);
    return false;
  }
  return true;
}

async function chooseStore(): Promise<void> {
  const r = await dialog.showOpenDialog(win!, {
    title: 'Open a memory store',
    properties: ['openFile'],
    filters: [
      { name: 'Memory stores', extensions: ['sqlite', 'db', 'sqlite3'] },
      { name: 'All files', extensions: ['*'] },
    ],
  });
  if (!r.canceled && r.filePaths[0]) await openStore(r.filePaths[0]);
}

async function chooseFolder(title: string): Promise<string | null> {
  const r = win ? await dialog.showOpenDialog(win, { title, properties: ['openDirectory'] }) : await dialog.showOpenDialog({ title, properties: ['openDirectory'] });
  return r.canceled ? null : (r.filePaths[0] ?? null);
}

async function chooseFleet(): Promise<void> {
  const h = startedHost();
  if (!h) return;
  const folder = await chooseFolder('Open a folder of memory stores');
  if (!folder) return;
  try {
    await h.openFleet(folder);
  } catch (err) {
    dialog.showErrorBox('Cannot open folder', (err as Error).message);
    return;
  }
  navigate('/fleet');
  h.live.bump();
}

async function chooseDemo(): Promise<void> {
  const r = await dialog.showSaveDialog(win!, { title: 'Create a demo store', defaultPath: join(app.getPath('documents'), 'mnemo-demo.sqlite') });
  if (!r.canceled && r.filePath) {
    if (existsSync(r.filePath)) {
      dialog.showErrorBox('File exists', `${r.filePath} already exists; choose a new file name for the demo store.`);
      return;
    }
    await createDemo(r.filePath);
  }
}

function buildMenu(): void {
  Menu.setApplicationMenu(
    Menu.buildFromTemplate(
      menuTemplate({
        isDev,
        isMac: process.platform === 'darwin',
        recent: state.recent,
        actions: {
          openStore: () => void chooseStore(),
          openRecent: (p) => void openStore(p),
          newDemoStore: () => void chooseDemo(),
          openFleet: () => void chooseFleet(),
          reload: () => win?.webContents.reload(),
          toggleDevTools: () => win?.webContents.toggleDevTools(),
          navigate,
        },
      }),
    ),
  );
}

/** The store to open at launch: --store <path>, MNEMO_STORE, the last one used, or the demo store. */
async function initialStore(): Promise<void> {
  const i = process.argv.indexOf('--store');
  const fromArgs = i >= 0 ? process.argv[i + 1] : undefined;
  const candidates = [fromArgs, process.env['MNEMO_STORE'], ...state.recent].filter((p): p is string => !!p && existsSync(p));
  for (const p of candidates) if (await openStore(p)) return;
  await createDemo(demoStorePath());
}

function createWindow(): void {
  const options = mainWindowOptions(preloadPath, state.bounds);
  win = new BrowserWindow({
    ...options,
    // Spelled out literally (as well as in window-options.ts) so static scanners see them at the call.
    webPreferences: { ...options.webPreferences, sandbox: true, contextIsolation: true, nodeIntegration: false, disableBlinkFeatures: 'Auxclick' },
  });
  if (state.maximized) win.maximize();
  win.once('ready-to-show', () => win?.show());
  const remember = () => {
    if (!win || win.isDestroyed()) return;
    state = { ...state, bounds: win.getNormalBounds(), maximized: win.isMaximized() };
    saveState(app.getPath('userData'), state);
  };
  win.on('close', remember);
  win.on('closed', () => {
    win = null;
  });
  const route = pendingRoute;
  pendingRoute = null;
  void win.loadURL(`${APP_URL}${route ? `#${route}` : ''}`);
  if (pendingNotice) showLinkNotice(win, pendingNotice);
  pendingNotice = null;
}

function focusWindow(): void {
  if (!win) return;
  if (win.isMinimized()) win.restore();
  win.focus();
}

if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  app.on('second-instance', (_event, argv) => {
    focusWindow();
    const route = deepLinkRoute(deepLinkFromArgv(argv));
    if (route) navigate(route);
  });
  app.on('open-url', (event, url) => {
    event.preventDefault();
    const route = deepLinkRoute(url);
    if (route) navigate(route);
  });
  // mnemo:// links only ever become a hash route inside our own page: parseDeepLink accepts the twelve
  // view names of deep-link.ts and an id of [0-9A-Za-z_-], nothing reaches a shell, a file path or the
  // engine unvalidated, and a malformed link is ignored with a notice.
  app.setAsDefaultProtocolClient('mnemo'); // eng-disable PROTOCOL_HANDLER_JS_CHECK (reviewed: see the comment above)
  app.on('web-contents-created', (_event, contents) => hardenWebContents(contents, shell));
  app.on('window-all-closed', () => {
    // The workers close their stores (indexes write their snapshots) before the app goes.
    void (host?.close() ?? Promise.resolve()).finally(() => app.quit());
  });

  void app.whenReady().then(async () => {
    state = loadState(app.getPath('userData'));
    denyAllPermissions(electronSession.defaultSession);
    registerAppProtocol(protocol, rendererRoot);
    // The window first: the engine's workers start beside it, and the page's calls wait until they
    // have the first store open (as they did when the engine ran here, before the window existed).
    const ready = (async () => {
      host = await startHost();
      host.live.onChange((generation) => send({ type: 'changed', generation }));
      await initialStore();
      return host;
    })();
    registerIpc(ipcMain, { door: () => ready });
    buildMenu();
    createWindow();
    ready.catch((err: unknown) => {
      dialog.showErrorBox('Cannot start the engine', (err as Error).message);
      app.quit();
    });
  });
}
