/**
 * Browser mode: `POST /api/<method>` with this run's token in a header. Live refresh is a
 * long-poll on `/api/_events` that answers when the store's generation moves. A tab opened from a
 * deep link has no token: its calls ride on the HttpOnly session cookie that the first tab got by
 * posting the token to `/api/_session`.
 */
import type { Envelope } from '../../core/api/define.js';
import type { EngineEvent, Transport } from './transport.js';

export const TOKEN_HEADER = 'x-mnemo-token';

async function post(base: string, token: string, method: string, input: unknown, signal?: AbortSignal): Promise<Envelope<unknown>> {
  let res: Response;
  try {
    res = await fetch(`${base}api/${encodeURIComponent(method)}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(token ? { [TOKEN_HEADER]: token } : {}) },
      credentials: 'same-origin',
      body: JSON.stringify(input ?? {}),
      ...(signal ? { signal } : {}),
    });
  } catch (err) {
    if ((err as Error).name === 'AbortError') throw err;
    return { ok: false, error: { code: 'busy', message: 'the workbench server is not reachable; is "mnemo serve" still running?' } };
  }
  try {
    return (await res.json()) as Envelope<unknown>;
  } catch {
    return { ok: false, error: { code: 'internal', message: `the server answered ${res.status} without a JSON body` } };
  }
}

/** Trades the token for the session cookie, so links opened in other tabs work while the server runs. */
export async function startSession(base: string, token: string): Promise<boolean> {
  const r = await post(base, token, '_session', {});
  return r.ok;
}

export function httpTransport(base: string, token: string): Transport {
  return {
    kind: 'http',
    invoke: (method, input) => post(base, token, method, input),
    subscribe(listener: (e: EngineEvent) => void) {
      let stopped = false;
      const ctrl = new AbortController();
      let generation = -1;
      const loop = async () => {
        while (!stopped) {
          try {
            const r = await post(base, token, '_events', { after: generation }, ctrl.signal);
            if (!r.ok) {
              await new Promise((ok) => setTimeout(ok, 2000));
              continue;
            }
            const g = (r.value as { generation: number }).generation;
            if (generation >= 0 && g !== generation) listener({ type: 'changed', generation: g });
            generation = g;
          } catch {
            if (stopped) return;
            await new Promise((ok) => setTimeout(ok, 1000));
          }
        }
      };
      void loop();
      return () => {
        stopped = true;
        ctrl.abort();
      };
    },
  };
}
