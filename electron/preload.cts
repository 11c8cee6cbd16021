/**
 * The preload bridge: the page gets exactly two functions on `window.mnemo`, invoke(method, input)
 * and on(listener). No ipcRenderer, no Node, nothing else crosses the context boundary. Compiled to
 * CommonJS (.cjs) because sandboxed preloads cannot be ES modules.
 */
import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';

const INVOKE = 'mnemo:invoke';
const EVENT = 'mnemo:event';

contextBridge.exposeInMainWorld('mnemo', {
  invoke: (method: string, input: unknown): Promise<unknown> => ipcRenderer.invoke(INVOKE, String(method), input ?? {}),
  on: (listener: (e: unknown) => void): (() => void) => {
    const handler = (_e: IpcRendererEvent, payload: unknown) => listener(payload);
    ipcRenderer.on(EVENT, handler);
    return () => {
      ipcRenderer.removeListener(EVENT, handler);
    };
  },
});
