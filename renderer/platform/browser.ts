/**
 * Every touch of `window`, `document` and browser storage goes through here, so components stay
 * plain React and the shell differences (Electron bridge vs browser tab) live in one file.
 */
import type { PreloadBridge } from '../api/transport.js';

declare global {
  interface Window {
    mnemo?: PreloadBridge;
  }
}

/** Roles whose widgets take printable keys or Space themselves. */
const CONTROL_ROLES = new Set(['button', 'checkbox', 'combobox', 'listbox', 'menu', 'menuitem', 'option', 'radio', 'slider', 'spinbutton', 'switch', 'tab', 'textbox', 'searchbox']);

export const platform = {
  preloadBridge(): PreloadBridge | null {
    return window.mnemo ?? null;
  },
  baseUrl(): string {
    return new URL('./', window.location.href).href;
  },
  readHash(): string {
    return window.location.hash.replace(/^#/, '');
  },
  writeHash(hash: string, replace = false): void {
    const next = `#${hash}`;
    if (window.location.hash === next) return;
    if (replace) window.history.replaceState(null, '', next);
    else window.location.hash = hash;
    if (replace) window.dispatchEvent(new HashChangeEvent('hashchange'));
  },
  onHashChange(cb: () => void): () => void {
    window.addEventListener('hashchange', cb);
    return () => window.removeEventListener('hashchange', cb);
  },
  sessionGet(key: string): string | null {
    try {
      return window.sessionStorage.getItem(key);
    } catch {
      return null;
    }
  },
  sessionSet(key: string, value: string): void {
    try {
      window.sessionStorage.setItem(key, value);
    } catch {
      /* storage may be disabled; the token then lives only in memory */
    }
  },
  localGet(key: string): string | null {
    try {
      return window.localStorage.getItem(key);
    } catch {
      return null;
    }
  },
  localSet(key: string, value: string): void {
    try {
      window.localStorage.setItem(key, value);
    } catch {
      /* not fatal: preferences just do not persist */
    }
  },
  prefersDark(): boolean {
    return window.matchMedia?.('(prefers-color-scheme: dark)').matches ?? false;
  },
  setTheme(theme: 'light' | 'dark'): void {
    document.documentElement.dataset['theme'] = theme;
  },
  setTitle(title: string): void {
    document.title = title;
  },
  onKeyDown(cb: (e: KeyboardEvent) => void): () => void {
    window.addEventListener('keydown', cb);
    return () => window.removeEventListener('keydown', cb);
  },
  now(): number {
    return performance.now();
  },
  /** The wall clock in epoch seconds: the renderer's one source of "now" for instants (time travel's quick steps). */
  epochSeconds(): number {
    return Date.now() / 1000;
  },
  /** Marks a moment for the benchmark (read by bench/workbench.ts through the Performance API). */
  mark(name: string): void {
    try {
      performance.mark(name);
    } catch {
      /* ignore */
    }
  },
  /** Focuses the current view's search field (the one marked `data-search`). */
  focusSearch(): void {
    const el = document.querySelector<HTMLInputElement>('[data-search]');
    el?.focus();
    el?.select();
  },
  /** Runs `fn` when the browser is idle (after the first screen); returns a canceller. */
  whenIdle(fn: () => void): () => void {
    if ('requestIdleCallback' in window) {
      const h = window.requestIdleCallback(fn, { timeout: 3000 });
      return () => window.cancelIdleCallback(h);
    }
    const t = setTimeout(fn, 1500);
    return () => clearTimeout(t);
  },
  rootElement(): HTMLElement {
    return document.getElementById('root')!;
  },
  /** True when focus is in a text field (single-key shortcuts must not fire there). */
  typingTarget(e: KeyboardEvent): boolean {
    const t = e.target as HTMLElement | null;
    return !!t && (t.tagName === 'INPUT' || t.tagName === 'TEXTAREA' || t.tagName === 'SELECT' || t.isContentEditable);
  },
  /**
   * Focus is in a control (a field, a button, a widget with a role that reads keys): single-key
   * shortcuts leave its keys to it. Esc leaves the control first; then the keys are shortcuts again.
   */
  controlTarget(e: KeyboardEvent): boolean {
    const t = e.target as HTMLElement | null;
    if (!t || t === document.body) return false;
    if (this.typingTarget(e)) return true;
    if (t.tagName === 'BUTTON' || t.tagName === 'SUMMARY') return true;
    const role = t.getAttribute('role');
    return role !== null && CONTROL_ROLES.has(role);
  },
  /** Esc in a control: leave it (the page keeps the keyboard, the shortcuts work again). */
  leaveControl(e: KeyboardEvent): boolean {
    if (!this.controlTarget(e)) return false;
    (e.target as HTMLElement).blur();
    return true;
  },
};
