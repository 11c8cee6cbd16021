/**
 * A door that runs the service on the test's own thread: the HTTP server's tests exercise HTTP
 * (tokens, hosts, bodies, cookies, the long poll) without starting engine workers for each test.
 * What only the engine host does (lanes, mirrored progress, cancels) is tested against a real one
 * (test/unit/engine-host.test.ts, the e2e tests through mnemo serve).
 */
import type { ApiSession } from '../../core/api/context.js';
import { changesWhatViewsShow } from '../../core/api/contract/index.js';
import { invoke } from '../../core/api/service.js';
import type { ApiDoor } from '../../core/host/engine-host.js';
import { LiveRefresh } from '../../core/host/live-refresh.js';

export function inProcessDoor(session: ApiSession, pollMs = 400): ApiDoor & { close(): void } {
  const live = new LiveRefresh(session, pollMs);
  live.start();
  const run = async (method: string, input: unknown) => {
    const envelope = await invoke(session, method, input);
    if (envelope.ok && changesWhatViewsShow(method)) live.bump();
    return envelope;
  };
  return {
    live,
    invoke: run,
    invokeJson: async (method, input) => {
      const e = await run(method, input);
      return { ok: e.ok, code: e.ok ? null : e.error.code, json: JSON.stringify(e) };
    },
    close: () => live.stop(),
  };
}
