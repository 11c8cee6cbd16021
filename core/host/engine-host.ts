/**
 * The engine host: what a long-lived process (`mnemo serve`, `mnemo mcp`, the desktop app) runs on
 * the thread that answers people and agents, in place of the engine. The engine runs in worker
 * threads (engine-worker.ts), each with its own session and store connection, in lanes (lanes.ts):
 * a short call never queues behind a long one, because they never share a thread.
 *
 * This thread keeps no engine and runs no SQL. It routes each call to a worker and hands back the
 * worker's envelope (invoke() runs there, validation included), and it answers on its own the
 * calls that must not wait for the worker they are about: a long job's progress (mirrored from
 * what the worker reports while the job runs) and its cancel (the call's id written to a board the
 * job reads between items). A call whose caller goes away (an HTTP client disconnects, a window
 * closes) is cancelled the same way, through its AbortSignal.
 *
 * Nothing here imports the engine at run time (test/unit/host-boundary.test.ts and the lint rule
 * `electron-no-engine` hold that): the workers load it.
 */
import { availableParallelism } from 'node:os';
import type { Worker } from 'node:worker_threads';
import { contract, changesWhatViewsShow, isMethodName, type MethodName, type OutputOf } from '../api/contract/index.js';
import type { Envelope } from '../api/define.js';
import type { PathPolicy } from '../api/path-policy.js';
import { MnemoError, type ErrorCode } from '../errors.js';
import { newCancelBoard, writeCancel } from '../engine/job-signals.js';
import { Generation } from './generation.js';
import { courtesyBoard, forgetKeptBy, type ControlOp, type EnvelopeText, type FromWorker, type SessionSetup, type ToWorker, type WorkerSetup } from './host-protocol.js';
import { CANCELS, laneOf, MIRRORED_PROGRESS, type Lane } from './lanes.js';
import { jobsNiceFromEnv } from './thread-priority.js';
import { siblingModule, startWorker } from './worker-thread.js';

export interface EngineHostOptions {
  /** How many workers each lane has (a lane left out has none; its calls go to the nearest lane that has). */
  lanes: Partial<Record<Lane, number>>;
  session: SessionSetup;
  /** The lane whose first worker polls for other connections' commits (live refresh), every `pollMs`; null: no polling. */
  watch?: { lane: Lane; pollMs: number } | null;
  /** Modules every worker loads (worker-extension.ts). */
  extensions?: string[];
  /** The nice value of the jobs lane's threads, so long work yields the CPU to calls people and agents wait on (default: MNEMO_JOBS_NICE, else 10; 0 leaves it). */
  jobsNice?: number;
  onWarning?: (message: string) => void;
  /** The folder picker a worker may ask for (Electron's dialog). */
  chooseFolder?: (title: string) => Promise<string | null>;
}

export interface CallOptions {
  /** Aborted when the caller goes away: the call is cancelled (callCancelled() turns true in its worker). */
  signal?: AbortSignal;
}

type Answer = Envelope<unknown> | EnvelopeText;

interface Pending {
  method: string;
  resolve: (answer: Answer) => void;
  cancelled: boolean;
}

const isText = (a: Answer): a is EnvelopeText => typeof (a as EnvelopeText).json === 'string';
const asText = (e: Envelope<unknown>): EnvelopeText => ({ ok: e.ok, code: e.ok ? null : e.error.code, json: JSON.stringify(e) });

/** What a door (the HTTP server, the IPC handler) needs of a host: calls, and the generation views wait on. */
export interface ApiDoor {
  readonly live: Generation;
  invoke(method: string, input: unknown, opts?: CallOptions): Promise<Envelope<unknown>>;
  /** invoke(), its envelope as JSON text (encoded off this thread when the call ran in a worker). */
  invokeJson(method: string, input: unknown, opts?: CallOptions): Promise<EnvelopeText>;
}

interface WorkerSlot {
  lane: Lane;
  index: number;
  worker: Worker;
  ready: Promise<void>;
  /** Calls wait for this: the worker ready and, when it replaced one that died, the store reopened. */
  usable: Promise<void>;
  pending: Map<number, Pending>;
  /** The last progress it reported, per mirrored method. */
  progress: Map<string, unknown>;
  /** Sessions pinned to it (agents lane). */
  pinned: number;
  exited: boolean;
}

/** Where a call goes when its lane has no worker in this host. */
const FALLBACK: Record<Lane, Lane[]> = {
  light: ['light', 'index', 'agents', 'jobs'],
  index: ['index', 'agents', 'light', 'jobs'],
  agents: ['agents', 'index', 'light', 'jobs'],
  jobs: ['jobs', 'index', 'agents', 'light'],
};

const failure = (code: ErrorCode, message: string): Envelope<never> => ({ ok: false, error: { code, message } });

/**
 * A sensible number of agent workers: one per core, at least two, at most four. On a network store
 * (PostgreSQL) a worker mostly waits on round trips, so more of them overlap their waits: two per
 * core, at least four, at most eight.
 */
export function defaultAgentWorkers(networkStore = false): number {
  const cores = availableParallelism();
  return networkStore ? Math.max(4, Math.min(8, 2 * cores)) : Math.max(2, Math.min(4, cores));
}

export class EngineHost implements ApiDoor {
  readonly live = new Generation();
  private readonly slots: WorkerSlot[] = [];
  private readonly board = newCancelBoard();
  /** Where a long change says it wants a store's write lock; every worker of the process shares it (host-protocol.ts). */
  private readonly courtesy: SharedArrayBuffer;
  private nextId = 1;
  /** The store every worker has open, and the paths they may open: a worker started again gets both. */
  private current: { path: string; readonly: boolean } | null = null;
  private paths: PathPolicy | null = null;
  private closing = false;

  private readonly jobsNice: number;

  private constructor(private readonly opts: EngineHostOptions) {
    this.jobsNice = opts.jobsNice ?? jobsNiceFromEnv();
    this.courtesy = courtesyBoard(Object.values(opts.lanes).reduce((sum, n) => sum + (n ?? 0), 0));
  }

  /** Starts the workers and waits until each is ready (its modules loaded). */
  static async start(opts: EngineHostOptions): Promise<EngineHost> {
    const host = new EngineHost(opts);
    for (const lane of ['light', 'index', 'agents', 'jobs'] as const) {
      for (let i = 0; i < (opts.lanes[lane] ?? 0); i++) host.spawn(lane, i);
    }
    if (host.slots.length === 0) throw new MnemoError('internal', 'an engine host needs at least one worker');
    try {
      await Promise.all(host.slots.map((s) => s.ready));
    } catch (err) {
      await host.close();
      throw err;
    }
    return host;
  }

  private spawn(lane: Lane, index: number, at = this.slots.length): WorkerSlot {
    const watch = this.opts.watch && this.opts.watch.lane === lane && index === 0 ? this.opts.watch.pollMs : null;
    const nice = lane === 'jobs' ? this.jobsNice : 0;
    const data: WorkerSetup = { lane, index, session: this.opts.session, cancelBoard: this.board, courtesyBoard: this.courtesy, courtesySlot: at, watchChanges: watch, extensions: this.opts.extensions ?? [], nice };
    const worker = startWorker(siblingModule(import.meta.url, 'engine-worker'), { workerData: data, name: `engine worker, ${lane} lane ${index}` });
    let markReady: () => void = () => {};
    let markFailed: (err: Error) => void = () => {};
    const ready = new Promise<void>((resolve, reject) => {
      markReady = resolve;
      markFailed = reject;
    });
    ready.catch(() => undefined);
    const slot: WorkerSlot = { lane, index, worker, ready, usable: ready, pending: new Map(), progress: new Map(), pinned: 0, exited: false };
    this.slots[at] = slot;
    worker.on('message', (m: FromWorker) => this.hear(slot, m, markReady));
    worker.on('error', (err) => {
      markFailed(err);
      this.lost(slot, `the engine worker (${lane}) failed: ${err.message}`);
    });
    worker.on('exit', (code) => {
      markFailed(new Error(`the engine worker (${lane}) exited with code ${code} before it was ready`));
      this.lost(slot, `the engine worker (${lane}) stopped (exit code ${code})`);
    });
    return slot;
  }

  private hear(slot: WorkerSlot, m: FromWorker, ready: () => void): void {
    switch (m.kind) {
      case 'ready':
        ready();
        return;
      case 'result':
      case 'text': {
        const p = slot.pending.get(m.id);
        slot.pending.delete(m.id);
        p?.resolve(m.kind === 'result' ? m.envelope : { ok: m.ok, code: m.code, json: m.json });
        return;
      }
      case 'progress':
        slot.progress.set(m.method, m.value);
        return;
      case 'changed':
        this.live.bump();
        return;
      case 'warning':
        this.opts.onWarning?.(m.message);
        return;
      case 'ask': {
        const chooser = this.opts.chooseFolder;
        const reply = (value: unknown) => this.send(slot, { kind: 'answer', id: m.id, value });
        if (!chooser) reply(null);
        else chooser(m.question.title).then(reply, () => reply(null));
        return;
      }
    }
  }

  /** A worker that stopped: its calls fail with a typed error, and (unless the host is closing) another takes its place. */
  private lost(slot: WorkerSlot, why: string): void {
    if (slot.exited) return;
    slot.exited = true;
    for (const p of slot.pending.values()) p.resolve(failure('internal', `${why}; the call did not finish`));
    slot.pending.clear();
    if (this.closing) return;
    const i = this.slots.indexOf(slot);
    forgetKeptBy(this.courtesy, i);
    const again = this.spawn(slot.lane, slot.index, i);
    again.pinned = slot.pinned;
    const current = this.current;
    const paths = this.paths;
    again.usable = again.ready
      .then(async () => {
        if (paths) await this.control(again, { op: 'paths', paths }, true);
        if (current) await this.control(again, { op: 'open', path: current.path, readonly: current.readonly }, true);
      })
      .catch((err: unknown) => this.opts.onWarning?.(`the engine worker started again could not reopen the store: ${(err as Error).message}`));
  }

  private send(slot: WorkerSlot, m: ToWorker): void {
    if (!slot.exited) slot.worker.postMessage(m);
  }

  /** The workers of `lane`, or of the nearest lane this host has. */
  private laneSlots(lane: Lane): WorkerSlot[] {
    for (const l of FALLBACK[lane]) {
      const found = this.slots.filter((s) => s.lane === l && !s.exited);
      if (found.length) return found;
    }
    return [];
  }

  /** The least busy worker of a lane. */
  private pick(lane: Lane): WorkerSlot | undefined {
    return this.laneSlots(lane).reduce<WorkerSlot | undefined>((best, s) => (!best || s.pending.size < best.pending.size ? s : best), undefined);
  }

  /** How many workers a lane has (after fallback). */
  workerCount(lane: Lane): number {
    return this.laneSlots(lane).length;
  }

  /** Pins a new session to the least loaded worker of `lane`; returns its index among the lane's workers. */
  pin(lane: Lane): number {
    const slots = this.laneSlots(lane);
    const slot = slots.reduce((best, s) => (s.pinned < best.pinned ? s : best), slots[0]!);
    slot.pinned += 1;
    return slots.indexOf(slot);
  }

  unpin(lane: Lane, worker: number): void {
    const slot = this.laneSlots(lane)[worker];
    if (slot && slot.pinned > 0) slot.pinned -= 1;
  }

  /** Sends a call to a worker once it is usable (`now`: at once, for the calls that make it usable). */
  private dispatch(slot: WorkerSlot, build: (id: number) => ToWorker, method: string, opts: CallOptions = {}, now = false): Promise<Answer> {
    if (this.closing) return Promise.resolve(failure('busy', 'the server is stopping; the call was not run'));
    const id = this.nextId++;
    const signal = opts.signal;
    return new Promise<Answer>((resolve) => {
      const onAbort = () => this.cancelCall(slot, id);
      const pending: Pending = {
        method,
        cancelled: false,
        resolve: (e) => {
          signal?.removeEventListener('abort', onAbort);
          resolve(e);
        },
      };
      slot.pending.set(id, pending);
      if (now) this.send(slot, build(id));
      else void slot.usable.then(() => this.send(slot, build(id)));
      if (signal) {
        if (signal.aborted) onAbort();
        else signal.addEventListener('abort', onAbort, { once: true });
      }
    });
  }

  /** Cancels one call: its id on the board (read by the job at once) and a message (kept past the board's reuse). */
  private cancelCall(slot: WorkerSlot, id: number): void {
    const p = slot.pending.get(id);
    if (!p || p.cancelled) return;
    p.cancelled = true;
    writeCancel(this.board, id);
    this.send(slot, { kind: 'cancel', id });
  }

  /**
   * Runs an API call in the worker its lane names and returns the service's envelope; the view's
   * generation moves after a call that changed what views show. Progress and cancels of long jobs
   * are answered here, at once.
   */
  async invoke(method: string, input: unknown, opts: CallOptions = {}): Promise<Envelope<unknown>> {
    const answer = await this.run(method, input, opts, false);
    return isText(answer) ? (JSON.parse(answer.json) as Envelope<unknown>) : answer;
  }

  async invokeJson(method: string, input: unknown, opts: CallOptions = {}): Promise<EnvelopeText> {
    const answer = await this.run(method, input, opts, true);
    return isText(answer) ? answer : asText(answer);
  }

  private async run(method: string, input: unknown, opts: CallOptions, json: boolean): Promise<Answer> {
    if (MIRRORED_PROGRESS.has(method)) {
      const mirrored = this.mirroredProgress(method, input);
      if (mirrored) return mirrored;
    }
    if (Object.prototype.hasOwnProperty.call(CANCELS, method)) {
      const answered = this.cancelJobs(method, input);
      if (answered) return answered;
    }
    const slot = this.pick(laneOf(method, input));
    if (!slot) return failure('internal', 'the engine host has no worker');
    const answer = await this.dispatch(slot, (id) => ({ kind: 'invoke', id, method, input, ...(json ? { json: true } : {}) }), method, opts);
    if (answer.ok && isMethodName(method) && contract[method].switchesStore === true) await this.followSwitch(slot);
    // Our own writes do not move the watching connection's data_version at once: tell the open views directly.
    if (answer.ok && changesWhatViewsShow(method)) this.live.bump();
    return answer;
  }

  /** Typed convenience: the method's output, or its typed error thrown. */
  async call<M extends MethodName>(method: M, input: unknown): Promise<OutputOf<M>> {
    return unwrap(await this.invoke(method, input)) as OutputOf<M>;
  }

  /** A request to a worker extension (worker-extension.ts) on worker `worker` of `lane` (or the least busy one). */
  async request(lane: Lane, name: string, payload: unknown, opts: CallOptions & { worker?: number } = {}): Promise<Envelope<unknown>> {
    const slots = this.laneSlots(lane);
    const slot = opts.worker !== undefined ? slots[opts.worker] : this.pick(lane);
    if (!slot) return failure('internal', `the engine host has no ${lane} worker`);
    return (await this.dispatch(slot, (id) => ({ kind: 'ext', id, name, payload }), name, opts)) as Envelope<unknown>;
  }

  private mirroredProgress(method: string, input: unknown): Envelope<unknown> | null {
    const parsed = contract[method as MethodName].input.safeParse(input ?? {});
    if (!parsed.success || (parsed.data as { at?: unknown }).at !== undefined) return null;
    const home = this.laneSlots(laneOf(method, {}));
    // An index build is reported by whichever worker builds: the home lane's first, then any other's.
    const candidates = method === 'recall.indexBuild' ? [...home, ...this.slots.filter((s) => !home.includes(s))] : home;
    let value: unknown;
    for (const s of candidates) {
      if (!s.progress.has(method)) continue;
      const v = s.progress.get(method);
      if (value === undefined) value = v;
      if (method !== 'recall.indexBuild' || (v as { building: unknown }).building !== null) {
        value = v;
        break;
      }
    }
    if (value === undefined) return null;
    // A job this host cancelled says so at once, whatever its worker last reported.
    const cancelling = Object.values(CANCELS).some((c) => c.progress === method && this.inFlight(c.calls).some((p) => p.cancelled));
    const shown = cancelling && (value as { running?: boolean }).running ? { ...(value as object), cancelling: true } : value;
    return { ok: true, value: shown };
  }

  private inFlight(methods: readonly string[]): { slot: WorkerSlot; id: number; cancelled: boolean }[] {
    const out: { slot: WorkerSlot; id: number; cancelled: boolean }[] = [];
    for (const slot of this.slots) for (const [id, p] of slot.pending) if (methods.includes(p.method)) out.push({ slot, id, cancelled: p.cancelled });
    return out;
  }

  /**
   * A cancel of the running job, answered here: the job's calls are cancelled on the board at once,
   * and the cancel also goes to the worker (its own flags, for a job that reads those). Null when no
   * such call runs through this host (the worker answers as it would).
   */
  private cancelJobs(method: string, input: unknown): Envelope<unknown> | null {
    if (!contract[method as MethodName].input.safeParse(input ?? {}).success) return null;
    const spec = CANCELS[method]!;
    const running = this.inFlight(spec.calls);
    if (running.length === 0) return null;
    if (spec.progress) {
      const progress = this.mirroredProgress(spec.progress, {});
      const state = progress?.ok ? (progress.value as { running?: boolean; cancellable?: boolean }) : null;
      if (state?.running && state.cancellable === false) return { ok: true, value: { cancelled: false } };
    }
    for (const r of running) this.cancelCall(r.slot, r.id);
    const slot = running[0]!.slot;
    void this.dispatch(slot, (id) => ({ kind: 'invoke', id, method, input }), method);
    return { ok: true, value: { cancelled: true } };
  }

  /** After a call made another store current in one worker, every other worker opens it too. */
  private async followSwitch(from: WorkerSlot): Promise<void> {
    const now = (await this.control(from, { op: 'current' })) as { path: string; readonly: boolean } | null;
    if (!now) return;
    this.current = now;
    await Promise.all(this.slots.filter((s) => s !== from && !s.exited).map((s) => this.control(s, { op: 'open', path: now.path, readonly: now.readonly })));
  }

  private async control(slot: WorkerSlot, op: ControlOp, now = false): Promise<unknown> {
    return unwrap((await this.dispatch(slot, (id) => ({ kind: 'control', id, control: op }), `control.${op.op}`, {}, now)) as Envelope<unknown>);
  }

  /**
   * Opens `path` in every worker (create: the first creates it, the others open what it made).
   * Throws the typed error of the first that fails.
   */
  async open(path: string, opts: { readonly?: boolean; create?: boolean } = {}): Promise<{ path: string; readonly: boolean }> {
    const [first, ...rest] = this.slots.filter((s) => !s.exited);
    const opened = (await this.control(first!, { op: 'open', path, ...opts })) as { path: string; readonly: boolean };
    await Promise.all(rest.map((s) => this.control(s, { op: 'open', path: opened.path, readonly: opened.readonly })));
    this.current = opened;
    this.live.bump();
    return opened;
  }

  /** The path of the store the workers have open, or null. */
  get storePath(): string | null {
    return this.current?.path ?? null;
  }

  /** Opens a fleet folder where the fleet methods run (the index lane); returns its listing. */
  async openFleet<T = unknown>(folder: string): Promise<T> {
    return (await this.control(this.pick(laneOf('fleet.list', {}))!, { op: 'openFleet', folder })) as T;
  }

  /** Which paths store.open and fleet.open may name, in every worker. */
  async setPaths(paths: PathPolicy): Promise<void> {
    this.paths = paths;
    await Promise.all(this.slots.filter((s) => !s.exited).map((s) => this.control(s, { op: 'paths', paths })));
  }

  /** Fills the open store with the demo (when it is empty), in the jobs lane. */
  async fillDemo(size: number, now: number): Promise<void> {
    await this.control(this.pick('jobs')!, { op: 'demo', path: this.current?.path ?? '', size, now });
    this.live.bump();
  }

  /** Closes every worker's session (indexes write their snapshots as they close), then stops the threads. */
  async close(): Promise<void> {
    if (this.closing) return;
    const live = this.slots.filter((s) => !s.exited);
    await Promise.all(live.map((s) => s.ready.then(() => this.control(s, { op: 'close' }, true)).catch(() => undefined)));
    this.closing = true;
    this.live.release();
    await Promise.all(live.map((s) => s.worker.terminate().catch(() => undefined)));
  }
}

function unwrap(envelope: Envelope<unknown>): unknown {
  if (envelope.ok) return envelope.value;
  throw new MnemoError(envelope.error.code as ErrorCode, envelope.error.message, envelope.error.details);
}
