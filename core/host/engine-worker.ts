/**
 * An engine worker: one thread with its own ApiSession, engine and store connection, serving the
 * calls an engine host (engine-host.ts) sends it. Synchronous SQL runs here, never on the thread
 * that answers people and agents; what crosses the boundary is the service's own envelope
 * (invoke()), so a call means exactly what it means in-process.
 *
 * Besides answering, it tells the host what the host answers without asking: the progress of the
 * long job it runs (posted as the job's progress moves, while the job holds this thread) and, on
 * the worker that watches, that another connection committed (live refresh).
 */
import { parentPort, workerData } from 'node:worker_threads';
import { fixedClock, systemClock } from '../clock.js';
import { MnemoError, toErrorShape } from '../errors.js';
import { callEnded, noteCancelled, onJobNews, readCancelsFrom, runAsCall } from '../engine/job-signals.js';
import { withCallSignal } from '../api/call-signal.js';
import { generateDemo } from '../demo/generate.js';
import { LlmEndpoints } from '../reflect/llm-endpoints.js';
import { VIEWER_SAVE_PATIENCE } from '../store/derived/index-snapshots.js';
import { ApiSession } from '../api/context.js';
import { invoke } from '../api/service.js';
import { openFleet } from '../api/handlers/fleet.js';
import { handlers } from '../api/handlers/index.js';
import type { Envelope } from '../api/define.js';
import { LiveRefresh } from './live-refresh.js';
import { TurnQueue } from './turn-queue.js';
import { MIRRORED_PROGRESS } from './lanes.js';
import type { ControlOp, FromWorker, ToWorker, WorkerSetup } from './host-protocol.js';
import type { WorkerExtension, WorkerExtensionContext } from './worker-extension.js';
import { lowerThisThreadPriority } from './thread-priority.js';
import { countMemories } from '../store/queries/memory-lookups.js';
import { useCourtesyBoard } from '../store/port/write-courtesy.js';
import { substringIndexPolicy } from '../recall/keyword-view.js';

const port = parentPort!;
const setup = workerData as WorkerSetup;
const post = (m: FromWorker) => port.postMessage(m);

readCancelsFrom(setup.cancelBoard);
useCourtesyBoard(setup.courtesyBoard, setup.courtesySlot);

// Before any work: the neighbour join's threads, started from here, inherit this thread's priority.
const priority = lowerThisThreadPriority(setup.nice);
if (!priority.lowered && setup.nice > 0 && process.platform === 'linux') post({ kind: 'warning', message: `the ${setup.lane} lane runs at the serving threads' priority: ${priority.reason}` });

let nextAsk = 1;
const asked = new Map<number, (value: unknown) => void>();
function ask(question: Extract<FromWorker, { kind: 'ask' }>['question']): Promise<unknown> {
  const id = nextAsk++;
  return new Promise((resolve) => {
    asked.set(id, resolve);
    post({ kind: 'ask', id, question });
  });
}

const s = setup.session;
/** The lanes that rank (recall, explain): they answer for the process's life, and log a recall's accesses. */
const RANKING_LANES: ReadonlySet<string> = new Set(['agents', 'index']);
// A ranking lane builds its substring indexes at its first recall, not a second into its callers' work (keyword-view.ts).
if (RANKING_LANES.has(setup.lane)) substringIndexPolicy.scansBefore = 0;
// In a process people watch, the lanes they wait on leave index snapshots to others; the jobs lane is
// nobody's view, so it encodes them as soon as they are due (index-snapshots.ts, savePatience).
const savePatience = s.engine?.watched && setup.lane !== 'jobs' ? VIEWER_SAVE_PATIENCE : undefined;
const session = new ApiSession({
  ...(s.now !== undefined ? { clock: fixedClock(s.now) } : { clock: systemClock }),
  reader: s.reader,
  ...(s.readonly ? { readonly: true } : {}),
  ...(s.runPacing ? { runPacing: s.runPacing } : {}),
  ...(s.llm ? { llmEndpoints: LlmEndpoints.of(s.llm.endpoints, s.llm.default) } : {}),
  engineOptions: {
    onWarning: (message) => post({ kind: 'warning', message }),
    ...(s.engine?.nativeBinding ? { nativeBinding: s.engine.nativeBinding } : {}),
    ...(s.engine?.replicas ? { replicas: s.engine.replicas } : {}),
    // The lanes that rank write a recall's accesses on nearly every call: their commits leave the
    // WAL's checkpoints to a thread of their own (wal-checkpointer.ts), so no agent waits on one.
    ...(RANKING_LANES.has(setup.lane) ? { walCheckpoints: 'background' as const } : {}),
    indexSnapshots: { ...(savePatience ? { savePatience } : {}), ...(s.engine?.snapshots === false ? { enabled: false } : {}) },
  },
  shell: {
    ...(s.shell?.fleetPathFromApi !== undefined ? { fleetPathFromApi: s.shell.fleetPathFromApi } : {}),
    ...(s.shell?.paths ? { paths: s.shell.paths } : {}),
    ...(s.shell?.chooseFolder ? { chooseFolder: (title: string) => ask({ what: 'chooseFolder', title }) as Promise<string | null> } : {}),
  },
});

/**
 * The host's mirror of this worker's job progress: the mirrored methods' answers, posted when they
 * change, at most every PROGRESS_MS while a job goes on, at once when one starts or ends.
 */
const PROGRESS_MS = 100;
const lastPosted = new Map<string, { text: string; active: boolean }>();
let lastPostAt = 0;
/** Whether a progress answer says a job (or an index build) is under way. */
const active = (value: unknown): boolean => {
  const v = value as { running?: unknown; building?: unknown } | null;
  return v?.running === true || (v?.building !== undefined && v.building !== null);
};
function publishProgress(force = false): void {
  if (!session.hasEngine) return;
  const now = performance.now();
  for (const method of MIRRORED_PROGRESS) {
    let value: unknown;
    try {
      value = (handlers[method as keyof typeof handlers] as (i: unknown, s: ApiSession) => unknown)({}, session);
    } catch {
      continue;
    }
    const text = JSON.stringify(value);
    const before = lastPosted.get(method);
    if (text === before?.text) continue;
    // A job starting or ending is told at once; its steps in between at most every PROGRESS_MS.
    const edge = before === undefined || before.active !== active(value);
    if (!force && !edge && now - lastPostAt < PROGRESS_MS) continue;
    lastPosted.set(method, { text, active: active(value) });
    lastPostAt = now;
    post({ kind: 'progress', method, value });
  }
}
onJobNews(() => publishProgress());

/** Index builds are news too; their tracker (recall.indexBuild) hears them from the engine's snapshots. */
let watchedEngine: unknown = null;
let unwatchBuilds: (() => void) | null = null;
function followEngine(): void {
  if (!session.hasEngine) return;
  const engine = session.engine();
  if (engine === watchedEngine) return;
  unwatchBuilds?.();
  watchedEngine = engine;
  lastPosted.clear();
  // Creates the build tracker before any build (it must see the start), then follows the builds.
  publishProgress(true);
  unwatchBuilds = engine.indexSnapshots.watch(() => publishProgress());
}

let live: LiveRefresh | null = null;
function startWatching(): void {
  if (setup.watchChanges === null || live) return;
  live = new LiveRefresh(session, setup.watchChanges);
  live.onChange(() => post({ kind: 'changed' }));
  live.start();
}

function control(op: ControlOp): unknown {
  switch (op.op) {
    case 'open': {
      const engine = session.open(op.path, { ...(op.readonly ? { readonly: true } : {}), ...(op.create ? { create: true } : {}) });
      return { path: engine.path, readonly: engine.store.readonly };
    }
    case 'openFleet':
      return openFleet(session, op.folder);
    case 'demo': {
      const store = session.engine().store;
      if (countMemories(store, { includeArchived: true }) === 0) generateDemo(store, { size: op.size, seed: 7, now: op.now });
      return { path: store.path };
    }
    case 'current': {
      if (!session.hasEngine) return null;
      const engine = session.engine();
      return { path: engine.path, readonly: engine.store.readonly };
    }
    case 'paths':
      session.shell.paths = op.paths;
      return null;
    case 'close':
      live?.stop();
      unwatchBuilds?.();
      session.close();
      return null;
  }
}

const extensionHandlers = new Map<string, (payload: unknown) => unknown>();
const context: WorkerExtensionContext = {
  lane: setup.lane,
  session,
  handle: (name, fn) => {
    extensionHandlers.set(name, fn);
  },
};

async function answer(id: number, run: () => unknown): Promise<Envelope<unknown>> {
  try {
    const value = await runAsCall(id, run);
    return { ok: true, value: value === undefined ? null : value };
  } catch (err) {
    return { ok: false, error: toErrorShape(err) };
  } finally {
    callEnded(id);
  }
}

/** The running invokes' caller-gone signals, by call id. */
const callerGone = new Map<number, AbortController>();

/** Calls begin one per turn of this thread's loop, so its timers run between them (turn-queue.ts). */
const calls = new TurnQueue((err) => post({ kind: 'warning', message: `a call could not start in the ${setup.lane} lane: ${(err as Error).message}` }));

port.on('message', (m: ToWorker) => {
  switch (m.kind) {
    case 'invoke': {
      // The call's caller-gone signal (api/call-signal.ts) aborts when the host's cancel message is
      // read: a job waiting between batches hears it then; one holding the thread reads the board.
      // Made as the call is read, so a cancel read while it still waits its turn reaches it too.
      const gone = new AbortController();
      callerGone.set(m.id, gone);
      calls.push(() => startInvoke(m, gone));
      return;
    }
    case 'control':
      calls.push(() => startControl(m));
      return;
    case 'ext':
      calls.push(() => startExtension(m));
      return;
    case 'cancel':
      noteCancelled(m.id);
      callerGone.get(m.id)?.abort();
      return;
    case 'answer':
      asked.get(m.id)?.(m.value);
      asked.delete(m.id);
      return;
  }
});

function startInvoke(m: Extract<ToWorker, { kind: 'invoke' }>, gone: AbortController): void {
  void runAsCall(m.id, () => withCallSignal(gone.signal, () => invoke(session, m.method, m.input))).then((envelope) => {
    callEnded(m.id);
    callerGone.delete(m.id);
    followEngine();
    // As JSON text when the door sends text on (HTTP): a big answer (a whole plan) is encoded
    // here, not on the thread that answers, and crosses as one string instead of a deep clone.
    if (m.json) post({ kind: 'text', id: m.id, ok: envelope.ok, code: envelope.ok ? null : envelope.error.code, json: JSON.stringify(envelope) });
    else post({ kind: 'result', id: m.id, envelope });
  });
}

function startControl(m: Extract<ToWorker, { kind: 'control' }>): void {
  void answer(m.id, () => control(m.control)).then((envelope) => {
    followEngine();
    startWatching();
    post({ kind: 'result', id: m.id, envelope });
  });
}

function startExtension(m: Extract<ToWorker, { kind: 'ext' }>): void {
  const handler = extensionHandlers.get(m.name);
  void answer(m.id, () => {
    if (!handler) throw new MnemoError('internal', `no engine-worker handler for ${m.name}`);
    return handler(m.payload);
  }).then((envelope) => {
    followEngine();
    post({ kind: 'result', id: m.id, envelope });
  });
}

for (const url of setup.extensions) {
  const mod = (await import(url)) as WorkerExtension;
  mod.register(context);
}
post({ kind: 'ready' });
