/**
 * The Electron shell with `electron` mocked (the binary cannot run here): window options, navigation
 * and window.open denied, permissions denied, IPC sender check and typed errors, a route for every
 * core/api method, deep links, menus, window state, and the main process booting end to end: with
 * the engine in an engine host's workers, never in the main process, and a closed window's calls
 * cancelled.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ApiSession } from '../../core/api/context.js';
import { METHOD_NAMES } from '../../core/api/contract/index.js';
import { Engine } from '../../core/engine/engine.js';
import type { ApiDoor, CallOptions } from '../../core/host/engine-host.js';
import { expected, fixtureCopy, tempDir } from '../../support/fixture.js';
import { inProcessDoor } from '../helpers/in-process-door.js';

// ---------------------------------------------------------------- the electron mock
type Listener = (...args: unknown[]) => unknown;
class FakeEmitter {
  listeners = new Map<string, Listener[]>();
  on(name: string, fn: Listener) {
    this.listeners.set(name, [...(this.listeners.get(name) ?? []), fn]);
    return this;
  }
  once(name: string, fn: Listener) {
    return this.on(name, fn);
  }
  emit(name: string, ...args: unknown[]) {
    for (const fn of this.listeners.get(name) ?? []) fn(...args);
  }
}
class FakeWebContents extends FakeEmitter {
  openHandler: ((d: { url: string }) => { action: string }) | null = null;
  sent: unknown[][] = [];
  setWindowOpenHandler(fn: (d: { url: string }) => { action: string }) {
    this.openHandler = fn;
  }
  send(...args: unknown[]) {
    this.sent.push(args);
  }
  reload() {}
  toggleDevTools() {}
}
const m = vi.hoisted(() => ({
  windows: [] as { options: Record<string, unknown>; loaded: string[]; webContents: unknown }[],
  handlers: new Map<string, (...a: unknown[]) => unknown>(),
  protocolHandlers: new Map<string, (req: { url: string }) => Promise<Response>>(),
  privileged: [] as unknown[],
  permissionRequest: null as null | ((...a: unknown[]) => void),
  permissionCheck: null as null | ((...a: unknown[]) => boolean),
  appEvents: new Map<string, (...a: unknown[]) => unknown>(),
  openedExternal: [] as string[],
  menus: [] as unknown[],
  userData: '',
  notices: [] as { type: string; title?: string; message: string }[],
  ready: null as null | (() => void),
}));

vi.mock('electron', () => {
  class BrowserWindow extends FakeEmitter {
    webContents = new FakeWebContents();
    record: { options: Record<string, unknown>; loaded: string[]; webContents: unknown };
    constructor(options: Record<string, unknown>) {
      super();
      this.record = { options, loaded: [], webContents: this.webContents };
      m.windows.push(this.record);
      m.appEvents.get('web-contents-created')?.({}, this.webContents);
    }
    loadURL(url: string) {
      this.record.loaded.push(url);
      return Promise.resolve();
    }
    maximize() {}
    show() {}
    focus() {}
    isMinimized() {
      return false;
    }
    isDestroyed() {
      return false;
    }
    isMaximized() {
      return false;
    }
    getNormalBounds() {
      return { x: 0, y: 0, width: 1000, height: 700 };
    }
    setTitle() {}
  }
  const ready = new Promise<void>((resolve) => (m.ready = resolve));
  return {
    app: {
      isPackaged: false,
      requestSingleInstanceLock: () => true,
      on: (name: string, fn: (...a: unknown[]) => unknown) => m.appEvents.set(name, fn),
      setAsDefaultProtocolClient: () => true,
      whenReady: () => ready,
      getPath: () => m.userData,
      quit: () => undefined,
    },
    BrowserWindow,
    ipcMain: { handle: (ch: string, fn: (...a: unknown[]) => unknown) => m.handlers.set(ch, fn), removeHandler: (ch: string) => m.handlers.delete(ch) },
    protocol: {
      registerSchemesAsPrivileged: (s: unknown[]) => m.privileged.push(...s),
      handle: (scheme: string, fn: (req: { url: string }) => Promise<Response>) => m.protocolHandlers.set(scheme, fn),
    },
    session: {
      defaultSession: {
        setPermissionRequestHandler: (fn: (...a: unknown[]) => void) => (m.permissionRequest = fn),
        setPermissionCheckHandler: (fn: (...a: unknown[]) => boolean) => (m.permissionCheck = fn),
        setDevicePermissionHandler: () => undefined,
      },
    },
    shell: { openExternal: async (url: string) => void m.openedExternal.push(url) },
    dialog: {
      showErrorBox: () => undefined,
      showMessageBox: async (_w: unknown, o: { type: string; title?: string; message: string }) => (m.notices.push(o), { response: 0 }),
      showOpenDialog: async () => ({ canceled: true, filePaths: [] }),
      showSaveDialog: async () => ({ canceled: true }),
    },
    Menu: { buildFromTemplate: (t: unknown) => t, setApplicationMenu: (t: unknown) => m.menus.push(t) },
    net: {},
  };
});

// ---------------------------------------------------------------- pure modules
import { mainWindowOptions } from '../../electron/window-options.js';
import { hardenWebContents, isAppUrl, isSafeExternalUrl, openExternalChecked } from '../../electron/security.js';
import { handleInvoke, isTrustedSender, registerIpc, IPC_INVOKE } from '../../electron/ipc.js';
import { deepLinkFromArgv, parseDeepLink, routeFromDeepLink } from '../../electron/deep-link.js';
import { menuTemplate, type MenuActions } from '../../electron/menu.js';
import { addRecent, loadState, saveState, DEFAULT_STATE } from '../../electron/window-state.js';
import { resolveAppFile } from '../../electron/app-protocol.js';
import { electronNativeBinding } from '../../electron/native.js';

const ourFrame = { senderFrame: { url: 'app://mnemo/index.html#/memories', parent: null } } as never;

describe('main window options', () => {
  it('sandboxes the renderer with context isolation and no Node integration', () => {
    const o = mainWindowOptions('/x/preload.cjs', { width: 1200, height: 800 });
    expect(o.webPreferences).toMatchObject({
      sandbox: true,
      contextIsolation: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webviewTag: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      preload: '/x/preload.cjs',
    });
  });
});

describe('navigation, windows, permissions', () => {
  it('denies navigation and redirects away from the bundle, and webviews', () => {
    const wc = new FakeWebContents();
    hardenWebContents(wc as never, { openExternal: async () => undefined });
    const prevented = (name: string, url: string) => {
      const ev = { preventDefault: vi.fn() };
      wc.emit(name, ev, url);
      return ev.preventDefault.mock.calls.length > 0;
    };
    expect(prevented('will-navigate', 'https://evil.example/')).toBe(true);
    expect(prevented('will-navigate', 'file:///etc/passwd')).toBe(true);
    expect(prevented('will-redirect', 'http://127.0.0.1:1/')).toBe(true);
    expect(prevented('will-navigate', 'app://mnemo/index.html#/graph')).toBe(false);
    expect(prevented('will-attach-webview', 'app://mnemo/x')).toBe(true);
  });

  it('denies window.open and sends only safe links to the system browser', async () => {
    const opened: string[] = [];
    const wc = new FakeWebContents();
    hardenWebContents(wc as never, { openExternal: async (u: string) => void opened.push(u) });
    expect(wc.openHandler!({ url: 'https://example.org/doc' })).toEqual({ action: 'deny' });
    expect(wc.openHandler!({ url: 'file:///etc/passwd' })).toEqual({ action: 'deny' });
    expect(wc.openHandler!({ url: 'javascript:alert(1)' })).toEqual({ action: 'deny' });
    await new Promise((r) => setTimeout(r, 0));
    expect(opened).toEqual(['https://example.org/doc']);
  });

  it('checks external URLs in one function', async () => {
    expect(isSafeExternalUrl('https://example.org')).toBe(true);
    expect(isSafeExternalUrl('mailto:a@b.c')).toBe(true);
    for (const bad of ['file:///etc/passwd', 'javascript:alert(1)', 'smb://host/share', 'https://user:pw@example.org', 'not a url', 'app://mnemo/index.html']) {
      expect(isSafeExternalUrl(bad), bad).toBe(false);
    }
    const shell = { openExternal: vi.fn(async () => undefined) };
    expect(await openExternalChecked(shell, 'ms-msdt:/id PCWDiagnostic')).toBe(false);
    expect(shell.openExternal).not.toHaveBeenCalled();
    expect(isAppUrl('app://mnemo/index.html')).toBe(true);
    expect(isAppUrl('app://other/index.html')).toBe(false);
  });

  it('serves only files inside the bundle on app://', () => {
    const root = '/srv/renderer';
    expect(resolveAppFile(root, 'app://mnemo/index.html')).toBe('/srv/renderer/index.html');
    expect(resolveAppFile(root, 'app://mnemo/')).toBe('/srv/renderer/index.html');
    expect(resolveAppFile(root, 'app://mnemo/assets/a.js')).toBe('/srv/renderer/assets/a.js');
    // Dot segments are resolved against the URL root first, so they can never climb out of the bundle.
    expect(resolveAppFile(root, 'app://mnemo/%2e%2e/%2e%2e/etc/passwd')).toBe('/srv/renderer/etc/passwd');
    expect(resolveAppFile(root, 'app://mnemo/a/..%2f..%2f..%2fetc/passwd')).toBeNull();
    expect(resolveAppFile(root, 'app://other/index.html')).toBeNull();
  });
});

describe('IPC adapter', () => {
  let session: ApiSession;
  let door: ReturnType<typeof inProcessDoor>;
  beforeAll(() => {
    session = ApiSession.withFrozenClock(expected().now);
    session.open(fixtureCopy());
    door = inProcessDoor(session);
  });
  afterAll(() => {
    door.close();
    session.close();
  });
  const opts = () => ({ door: () => door });

  it('rejects invalid input with a typed bad_input error, never a stack', async () => {
    const r = await handleInvoke(ourFrame, 'memory.list', { limit: 'lots', types: ['nope'] }, opts());
    expect(r).toMatchObject({ ok: false, error: { code: 'bad_input', message: expect.stringMatching(/invalid input for memory\.list/) } });
    expect(JSON.stringify(r)).not.toMatch(/\.ts:\d+/);
    expect(await handleInvoke(ourFrame, 42, {}, opts())).toMatchObject({ ok: false, error: { code: 'bad_input' } });
    expect(await handleInvoke(ourFrame, 'memory.get', { id: 'missing-id' }, opts())).toMatchObject({ ok: false, error: { code: 'not_found' } });
  });

  it('answers valid calls with an ok envelope', async () => {
    const r = await handleInvoke(ourFrame, 'store.info', {}, opts());
    expect(r).toMatchObject({ ok: true, value: { counts: { memories: expected().summary.memories } } });
  });

  it('refuses senders that are not our top-level page', async () => {
    const foreign = { senderFrame: { url: 'https://evil.example/', parent: null } } as never;
    const sub = { senderFrame: { url: 'app://mnemo/index.html', parent: {} } } as never;
    expect(isTrustedSender(foreign)).toBe(false);
    expect(isTrustedSender(sub)).toBe(false);
    expect(isTrustedSender({ senderFrame: null } as never)).toBe(false);
    expect(await handleInvoke(foreign, 'store.info', {}, opts())).toMatchObject({ ok: false, error: { code: 'permission' } });
  });

  it('routes every core/api method: none answers "unknown method"', async () => {
    const registered = new Map<string, (...a: unknown[]) => unknown>();
    registerIpc({ handle: (ch: string, fn: (...a: unknown[]) => unknown) => registered.set(ch, fn), removeHandler: () => undefined } as never, opts());
    const handler = registered.get(IPC_INVOKE)!;
    expect(handler).toBeTypeOf('function');
    expect(METHOD_NAMES.length).toBeGreaterThan(10);
    for (const method of METHOD_NAMES) {
      // A deliberately wrong input: every method must reach its own schema (bad_input about the input), not the unknown-method branch.
      const r = (await handler(ourFrame, method, { __definitely_not_a_field: Symbol.name, id: 7, ids: 7, query: 7, event_id: 'x', path: 7, focus: 7 })) as { ok: boolean; error?: { message: string } };
      if (!r.ok) expect(r.error!.message, method).not.toMatch(/unknown method/);
    }
    const unknown = (await handler(ourFrame, 'drop.everything', {})) as { ok: boolean; error: { message: string } };
    expect(unknown.error.message).toMatch(/unknown method/);
  });

  it('cancels the calls of a window that closes, and only its own', async () => {
    const seen: { method: string; signal: AbortSignal | undefined }[] = [];
    const recording: ApiDoor = { ...door, invoke: async (method: string, input: unknown, o: CallOptions = {}) => (seen.push({ method, signal: o.signal }), door.invoke(method, input)) };
    const closing = new FakeWebContents();
    const staying = new FakeWebContents();
    const frame = { senderFrame: { url: 'app://mnemo/index.html#/memories', parent: null } };
    await handleInvoke({ ...frame, sender: closing } as never, 'store.info', {}, { door: () => recording });
    await handleInvoke({ ...frame, sender: staying } as never, 'store.info', {}, { door: () => recording });
    expect(seen.map((c) => c.signal?.aborted)).toEqual([false, false]);
    closing.emit('destroyed');
    expect(seen.map((c) => c.signal?.aborted)).toEqual([true, false]);
  });
});

describe('deep links, menus, window state, native binding', () => {
  it('turns mnemo:// links into hash routes and refuses anything else', () => {
    expect(routeFromDeepLink('mnemo://memory/abc123')).toBe('/memory/abc123');
    expect(routeFromDeepLink('mnemo://graph?focus=abc123')).toBe('/graph?focus=abc123');
    expect(routeFromDeepLink('mnemo://recall?q=deploy%20billing&k=5')).toBe('/recall?q=deploy%20billing&k=5');
    expect(routeFromDeepLink('mnemo://settings/x')).toBeNull();
    expect(routeFromDeepLink('mnemo://memory/..%2F..%2Fetc')).toBeNull();
    expect(routeFromDeepLink('https://memory/abc')).toBeNull();
    expect(deepLinkFromArgv(['/app', '--flag', 'mnemo://memory/x1'])).toBe('mnemo://memory/x1');
  });

  it('refuses a malformed %-escape with a reason instead of throwing', () => {
    expect(routeFromDeepLink('mnemo://memory/%E0%A4%A')).toBeNull();
    expect(routeFromDeepLink('mnemo://%E0%A4%A')).toBeNull();
    expect(parseDeepLink('mnemo://memory/%E0%A4%A')).toEqual({ ok: false, reason: expect.stringMatching(/malformed %-escape/) });
    // Every view of the renderer's hash routes is accepted (the comment in main.ts names them).
    for (const v of ['memories', 'memory', 'graph', 'recall', 'audit', 'overview', 'reflection', 'history', 'beliefs', 'fleet', 'prospective']) expect(routeFromDeepLink(`mnemo://${v}`)).toBe(`/${v}`);
  });

  it('has the file menu items and shows DevTools only in development', () => {
    const actions: MenuActions = { openStore: vi.fn(), openRecent: vi.fn(), newDemoStore: vi.fn(), openFleet: vi.fn(), reload: vi.fn(), toggleDevTools: vi.fn(), navigate: vi.fn() };
    const labels = (t: unknown): string[] =>
      (t as { label?: string; submenu?: unknown[] }[]).flatMap((i) => [i.label ?? '', ...(Array.isArray(i.submenu) ? labels(i.submenu) : [])]);
    const dev = labels(menuTemplate({ isDev: true, isMac: false, recent: ['/tmp/a.sqlite'], actions }));
    const prod = labels(menuTemplate({ isDev: false, isMac: false, recent: [], actions }));
    for (const l of ['Open Store…', 'Open Recent', 'New Demo Store…', 'Reload']) expect(prod).toContain(l);
    expect(dev).toContain('Toggle DevTools');
    expect(prod).not.toContain('Toggle DevTools');
    expect(prod).toContain('No recent stores');
    expect(dev.some((l) => l.includes('a.sqlite'))).toBe(true);
  });

  it('remembers window bounds and recent stores, and survives a corrupt state file', () => {
    const dir = tempDir();
    expect(loadState(dir)).toEqual(DEFAULT_STATE);
    const s = addRecent(addRecent({ ...DEFAULT_STATE, bounds: { x: 10, y: 20, width: 900, height: 700 } }, '/a.sqlite'), '/b.sqlite');
    saveState(dir, addRecent(s, '/a.sqlite'));
    const back = loadState(dir);
    expect(back.bounds).toEqual({ x: 10, y: 20, width: 900, height: 700 });
    expect(back.recent).toEqual(['/a.sqlite', '/b.sqlite']);
    mkdirSync(join(dir, 'x'), { recursive: true });
    saveState(dir, { ...back, bounds: { width: 5, height: 5 } });
    expect(loadState(dir).bounds).toEqual(DEFAULT_STATE.bounds);
  });

  it('never points Electron at the Node copy of better-sqlite3', () => {
    const none = electronNativeBinding({ isPackaged: true, resourcesPath: tempDir(), appRoot: tempDir(), env: {} });
    expect(none).toBeUndefined();
  });
});

describe('main process boot (electron mocked)', () => {
  // Spied from this block on: the IPC adapter's tests above open an engine in-process on purpose.
  let engineOpened: ReturnType<typeof vi.spyOn>;
  beforeAll(() => {
    engineOpened = vi.spyOn(Engine, 'open');
  });
  afterAll(async () => {
    // Closing the last window closes the engine host (its workers close their stores).
    await m.appEvents.get('window-all-closed')?.();
    await new Promise((r) => setTimeout(r, 500));
  });

  it('opens the store, registers IPC and the app protocol, and creates one hardened window', async () => {
    m.userData = tempDir();
    process.env['MNEMO_STORE'] = fixtureCopy();
    // Launched by a malformed link: it opens nothing, and the window shows why once it exists.
    process.argv.push('mnemo://memory/%E0%A4%A');
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    await import('../../electron/main.js');
    process.argv.pop();
    warn.mockRestore();
    m.ready!();
    await new Promise((r) => setTimeout(r, 50));
    expect(m.privileged).toEqual([expect.objectContaining({ scheme: 'app', privileges: expect.objectContaining({ standard: true, secure: true }) })]);
    expect(m.windows).toHaveLength(1);
    const w = m.windows[0]!;
    expect(w.options['webPreferences']).toMatchObject({ sandbox: true, contextIsolation: true, nodeIntegration: false });
    expect(String((w.options['webPreferences'] as { preload: string }).preload)).toMatch(/preload\.cjs$/);
    expect(w.loaded[0]).toMatch(/^app:\/\/mnemo\/index\.html/);
    expect(w.loaded[0]).not.toContain('#');
    expect(m.notices.splice(0)).toEqual([{ type: 'warning', title: 'Link not opened', message: expect.stringMatching(/not opened: it has a malformed %-escape/) }]);
    // Permissions: every request and check is denied.
    const cb = vi.fn();
    m.permissionRequest!({}, 'media', cb);
    expect(cb).toHaveBeenCalledWith(false);
    expect(m.permissionCheck!({}, 'notifications')).toBe(false);
    // The window's contents were hardened through web-contents-created.
    const wc = w.webContents as FakeWebContents;
    const ev = { preventDefault: vi.fn() };
    wc.emit('will-navigate', ev, 'https://evil.example');
    expect(ev.preventDefault).toHaveBeenCalled();
    // IPC answers through core/api, in the engine host's workers: the main process never opened an engine.
    const invoke = m.handlers.get(IPC_INVOKE)!;
    const info = (await invoke(ourFrame, 'store.info', {})) as { ok: boolean; value: { counts: { memories: number }; path: string } };
    expect(info.ok).toBe(true);
    expect(info.value.counts.memories).toBe(expected().summary.memories);
    expect(info.value.path).toBe(process.env['MNEMO_STORE']);
    const written = (await invoke(ourFrame, 'memory.add', { content: 'written through IPC into the engine host' })) as { ok: boolean };
    expect(written.ok).toBe(true);
    expect(engineOpened).not.toHaveBeenCalled();
    // The app protocol serves with a CSP and refuses traversal.
    const handler = m.protocolHandlers.get('app')!;
    expect((await handler({ url: 'app://mnemo/%2e%2e/package.json' })).status).toBe(404);
    // The menu was built.
    expect(m.menus.length).toBeGreaterThan(0);
    delete process.env['MNEMO_STORE'];
  });

  it('ignores a malformed mnemo:// link with a notice and keeps running; a good link still navigates', () => {
    const w = m.windows[0]!;
    const wc = w.webContents as FakeWebContents;
    const openUrl = m.appEvents.get('open-url')!;
    const secondInstance = m.appEvents.get('second-instance')!;
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const ev = { preventDefault: vi.fn() };
    wc.sent = [];
    expect(() => openUrl(ev, 'mnemo://memory/%E0%A4%A')).not.toThrow();
    expect(() => secondInstance({}, ['/app', 'mnemo://%E0%A4%A'])).not.toThrow();
    expect(ev.preventDefault).toHaveBeenCalled();
    expect(wc.sent).toEqual([]);
    expect(m.notices.map((n) => n.type)).toEqual(['warning', 'warning']);
    expect(m.notices[0]!.message).toMatch(/not opened: it has a malformed %-escape/);
    expect(warn).toHaveBeenCalledTimes(2);
    warn.mockRestore();
    openUrl(ev, 'mnemo://memory/abc123');
    expect(wc.sent).toEqual([[expect.any(String), { type: 'navigate', route: '/memory/abc123' }]]);
  });
});
