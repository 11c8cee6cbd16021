/** Remembers the window's size and position, and the recently opened stores, in the user-data folder. */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Bounds } from './window-options.js';

export interface ShellState {
  bounds: Bounds;
  maximized: boolean;
  recent: string[];
}

export const DEFAULT_STATE: ShellState = { bounds: { width: 1400, height: 900 }, maximized: false, recent: [] };
const MAX_RECENT = 10;

export function statePath(userData: string): string {
  return join(userData, 'workbench-state.json');
}

export function loadState(userData: string): ShellState {
  const file = statePath(userData);
  if (!existsSync(file)) return structuredClone(DEFAULT_STATE);
  try {
    const raw = JSON.parse(readFileSync(file, 'utf8')) as Partial<ShellState>;
    const b = raw.bounds;
    const okNum = (n: unknown, min: number) => typeof n === 'number' && Number.isFinite(n) && n >= min;
    const bounds: Bounds =
      b && okNum(b.width, 400) && okNum(b.height, 300)
        ? { width: b.width, height: b.height, ...(okNum(b.x, -10000) && okNum(b.y, -10000) ? { x: b.x!, y: b.y! } : {}) }
        : DEFAULT_STATE.bounds;
    const recent = Array.isArray(raw.recent) ? raw.recent.filter((p): p is string => typeof p === 'string').slice(0, MAX_RECENT) : [];
    return { bounds, maximized: raw.maximized === true, recent };
  } catch {
    return structuredClone(DEFAULT_STATE); // a corrupt state file must never stop the app from starting
  }
}

export function saveState(userData: string, state: ShellState): void {
  const file = statePath(userData);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, JSON.stringify(state, null, 2));
}

export function addRecent(state: ShellState, path: string): ShellState {
  return { ...state, recent: [path, ...state.recent.filter((p) => p !== path)].slice(0, MAX_RECENT) };
}
