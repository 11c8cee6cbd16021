/**
 * The one seam between the UI and the engine. Inside Electron the preload bridge carries calls
 * over IPC; in browser mode they go to the loopback server over HTTP. Everything above this file
 * is the same in both modes.
 */
import type { Envelope } from '../../core/api/define.js';

export type EngineEvent =
  | { type: 'changed'; generation: number }
  | { type: 'navigate'; route: string }
  | { type: 'store'; path: string };

export interface Transport {
  readonly kind: 'ipc' | 'http';
  invoke(method: string, input: unknown): Promise<Envelope<unknown>>;
  /** Engine events (live refresh, deep links); returns the unsubscribe function. */
  subscribe(listener: (e: EngineEvent) => void): () => void;
}

/** What the Electron preload exposes on `window.mnemo` (see electron/preload.cts). */
export interface PreloadBridge {
  invoke(method: string, input: unknown): Promise<Envelope<unknown>>;
  on(listener: (e: EngineEvent) => void): () => void;
}
