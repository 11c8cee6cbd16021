/**
 * The IPC adapter: one `ipcMain.handle` channel that validates the sender (our own page, top frame),
 * then hands the call to the engine host (core/host/engine-host.ts), whose workers run `invoke()`:
 * the method's zod schema, then the result envelope `{ok, value} | {ok:false, error:{code, message}}`.
 * Nothing of the engine runs in this process's main thread. A call still running when its window
 * goes away is cancelled (a long job stops and leaves the store as it was).
 */
import type { IpcMain, IpcMainInvokeEvent } from 'electron';
import type { Envelope } from '../core/api/define.js';
import type { ApiDoor } from '../core/host/engine-host.js';
import { isAppUrl } from './security.js';

export const IPC_INVOKE = 'mnemo:invoke';
export const IPC_EVENT = 'mnemo:event';

export function isTrustedSender(event: Pick<IpcMainInvokeEvent, 'senderFrame'>): boolean {
  const frame = event.senderFrame;
  if (!frame) return false;
  // Only the top frame of our own bundle; never a subframe or a page that navigated elsewhere.
  if (frame.parent !== null) return false;
  return isAppUrl(frame.url);
}

export interface IpcOptions {
  /** Where calls run (the engine host, once started); it moves the views' generation after a call that changed what they show. */
  door: () => ApiDoor | Promise<ApiDoor>;
}

/** What a sender's calls are cancelled by: its web contents being destroyed (the window closed). */
type Sender = { once(event: 'destroyed', listener: () => void): unknown };
const goneSignals = new WeakMap<object, AbortSignal>();

/** An AbortSignal that aborts when `sender` is destroyed (one per sender). */
export function senderGone(sender: Sender | undefined): AbortSignal | undefined {
  if (!sender || typeof sender.once !== 'function') return undefined;
  let signal = goneSignals.get(sender);
  if (!signal) {
    const controller = new AbortController();
    sender.once('destroyed', () => controller.abort());
    signal = controller.signal;
    goneSignals.set(sender, signal);
  }
  return signal;
}

export async function handleInvoke(event: Pick<IpcMainInvokeEvent, 'senderFrame'> & { sender?: Sender }, method: unknown, input: unknown, opts: IpcOptions): Promise<Envelope<unknown>> {
  if (!isTrustedSender(event)) {
    return { ok: false, error: { code: 'permission', message: 'refused: IPC calls are accepted only from the workbench page' } };
  }
  if (typeof method !== 'string') return { ok: false, error: { code: 'bad_input', message: 'method must be a string such as "memory.get"' } };
  const signal = senderGone(event.sender);
  return (await opts.door()).invoke(method, input, signal ? { signal } : {});
}

export function registerIpc(ipcMain: Pick<IpcMain, 'handle' | 'removeHandler'>, opts: IpcOptions): () => void {
  ipcMain.handle(IPC_INVOKE, (event, method: unknown, input: unknown) => handleInvoke(event, method, input, opts));
  return () => ipcMain.removeHandler(IPC_INVOKE);
}
