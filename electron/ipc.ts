/**
 * The IPC adapter over core/api: one `ipcMain.handle` channel that validates the sender (our own
 * page, top frame), then hands the call to `invoke()`, which checks the input with the method's zod
 * schema and returns the result envelope `{ok, value} | {ok:false, error:{code, message}}`.
 */
import type { IpcMain, IpcMainInvokeEvent } from 'electron';
import type { ApiSession } from '../core/api/context.js';
import { changesWhatViewsShow } from '../core/api/contract/index.js';
import type { Envelope } from '../core/api/define.js';
import { invoke } from '../core/api/service.js';
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
  session: () => ApiSession;
  /** Called after a successful call that changes what the views show (changesWhatViewsShow): live refresh. */
  onMutation?: (method: string) => void;
}

export async function handleInvoke(event: Pick<IpcMainInvokeEvent, 'senderFrame'>, method: unknown, input: unknown, opts: IpcOptions): Promise<Envelope<unknown>> {
  if (!isTrustedSender(event)) {
    return { ok: false, error: { code: 'permission', message: 'refused: IPC calls are accepted only from the workbench page' } };
  }
  if (typeof method !== 'string') return { ok: false, error: { code: 'bad_input', message: 'method must be a string such as "memory.get"' } };
  const res = await invoke(opts.session(), method, input);
  if (res.ok && changesWhatViewsShow(method)) opts.onMutation?.(method);
  return res;
}

export function registerIpc(ipcMain: Pick<IpcMain, 'handle' | 'removeHandler'>, opts: IpcOptions): () => void {
  ipcMain.handle(IPC_INVOKE, (event, method: unknown, input: unknown) => handleInvoke(event, method, input, opts));
  return () => ipcMain.removeHandler(IPC_INVOKE);
}
