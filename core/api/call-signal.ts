/**
 * The signal that a call's caller has gone away: an HTTP client that closed its connection, a
 * window that closed, a CLI user who pressed Ctrl-C. A door that can tell runs the call inside
 * `withCallSignal(signal, () => invoke(...))`; a long job the call starts (a commit, an undo or
 * redo, a plan, a fit) then cancels itself when the signal aborts, exactly as its own cancel
 * method would. Nothing else changes for the door: `invoke` takes no new argument.
 *
 * Why an async context rather than a parameter: the job is started several layers below `invoke`
 * (a handler, then the job tracker), and one engine serves several callers at once, so the signal
 * must follow one call through its awaits and nothing else (as attribution.ts does for credentials).
 */
import { AsyncLocalStorage } from 'node:async_hooks';

const current = new AsyncLocalStorage<AbortSignal>();

/** Runs `fn` as a call whose caller's departure `signal` announces. */
export function withCallSignal<T>(signal: AbortSignal, fn: () => T): T {
  return current.run(signal, fn);
}

/**
 * Calls `cancel` once if the running call's caller goes away before `dispose` is called. Returns
 * `dispose`; without a signal (an in-process caller) it does nothing. `cancel` must be safe to
 * call at any moment, from any point of the event loop: it only asks the job to stop.
 */
export function onCallerGone(cancel: () => void): () => void {
  const signal = current.getStore();
  if (!signal) return () => {};
  if (signal.aborted) {
    cancel();
    return () => {};
  }
  const listener = () => cancel();
  signal.addEventListener('abort', listener, { once: true });
  return () => signal.removeEventListener('abort', listener);
}

/** Runs `work`, calling `cancel` if the running call's caller goes away meanwhile (onCallerGone). */
export async function cancelledIfCallerGoes<T>(cancel: () => void, work: () => Promise<T>): Promise<T> {
  const forget = onCallerGone(cancel);
  try {
    return await work();
  } finally {
    forget();
  }
}
