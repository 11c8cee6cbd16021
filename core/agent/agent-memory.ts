/**
 * AgentMemory: the store as one agent sees it. It is the reference's memory skill (remember,
 * recall, search, update_memory, forget, associate, deref, stats, reflect) plus prospective memory
 * (todos, intents) and spontaneous injection, with the reference's owner policy: reads default to
 * the agent's own role plus unowned memories, `*` reads everyone, and writes to another role's
 * memories are refused. Every read is logged with this agent as `reader_owner` and its session as
 * `session_ref`. The MCP server and the library API are both this class.
 *
 * A session that serves an agent credential (core/agent/credentials.ts) takes its owner from the
 * credential, refuses what the credential's scopes refuse, and every access and change it makes
 * records the credential's id.
 *
 * Recall goes through the service contract (`recall.run` / `recall.search` / `recall.explain`,
 * see ranking.ts), with this agent's identity as the session's reader, so the access log
 * attributes every read.
 */
import { homedir } from 'node:os';
import type { Engine } from '../engine/engine.js';
import { assertWritable, linkMemories, updateMemory, type MemoryPatch } from '../engine/memory-ops.js';
import { badInput, MnemoError } from '../errors.js';
import { isMemoryType, type TodoStatus } from '../model/enums.js';
import { toNumeric } from '../model/ladders.js';
import { accessRecord, memoryHead, toStatus, type Memory } from '../model/memory.js';
import { roleOf, scopeFilter, type OwnerScope } from '../model/owner.js';
import { fireDueIntents, listIntents, type FiredIntent, type IntentView } from '../prospective/intents.js';
import type { DueContext, IntentState } from '../prospective/scheduler.js';
import { listTodos, openTodos, todoView, type TodoView } from '../prospective/todos.js';
import { normalizeTrigger, type TriggerSpecInput } from '../prospective/triggers.js';
import type { ExplainRow } from '../recall/types.js';
import { RECALLED_MEMORIES, type WithRecalledMemories } from '../recall/record.js';
import { contentHash } from '../model/content-hash.js';
import { readScope, type AgentIdentity } from '../model/identity.js';
import { runAttributed } from '../store/port/attribution.js';
import { assertCredentialAllows, type GuardedAction } from './scope-guard.js';
import { DEFAULT_SPONTANEOUS, InjectionGate, deriveQueries, memoryLabel, renderBlock, selectBlock, type SpontaneousConfig, type TurnContext } from './inject.js';
import { rankForAgent } from './ranking.js';
import { captureRef, parseRef, renderRef, resolveRef, type ReferenceEnv, type ReferenceHost, type ResolvedRef } from './references.js';
import { DEFAULT_WRITE_POLICY, rememberAs, type RememberResult, type WritePolicy } from './remember.js';
import { emptyStats, type MemoryStats } from './stats.js';
import { assertContainedFile, defaultWorkspaceRoot } from './workspace.js';
import { runReflection, type ReflectionOutcome } from './reflect.js';
import type { AgentSession } from './session.js';
import type { EraseReceipt } from '../erase/erase.js';
import { flagContradiction } from '../engine/contradictions.js';
import type { AgentMemoryOptions, Importance, InjectionResult, RecallOptions, RecalledMemory, RememberInput, UpdateInput } from './types.js';
import { putTombstone } from '../store/queries/tombstones.js';
import { countMemories, requireMemory, requireMemoryId } from '../store/queries/memory-lookups.js';

export type { AgentMemoryOptions, Importance, InjectionResult, RecallOptions, RecalledMemory, RememberInput, UpdateInput } from './types.js';

/** `S` is the session it runs in; the library API's is an API session (core/index.ts). */
export class AgentMemory<S extends AgentSession = AgentSession> {
  readonly who: AgentIdentity;
  readonly spontaneous: SpontaneousConfig;
  readonly writePolicy: WritePolicy;
  private readonly workspaceRoot: string | null;
  private readonly host: ReferenceHost | undefined;
  private readonly gate = new InjectionGate();
  private readonly counters: MemoryStats = emptyStats();

  constructor(
    readonly session: S,
    opts: AgentMemoryOptions = {},
  ) {
    this.who = { owner: session.reader.owner, session_ref: session.reader.session_ref };
    this.workspaceRoot = opts.workspaceRoot === undefined ? defaultWorkspaceRoot(process.cwd(), homedir()) : opts.workspaceRoot;
    this.host = opts.host;
    this.spontaneous = { ...DEFAULT_SPONTANEOUS, ...(opts.spontaneous ?? {}) };
    this.writePolicy = { ...DEFAULT_WRITE_POLICY, ...(opts.write ?? {}) };
  }

  get engine(): Engine {
    return this.session.engine();
  }

  /** Runs a read as this session's credential (its accesses record the credential). */
  private attributed<T>(fn: () => T): T {
    // Without a credential (stdio, the library) the change still names the agent that made it.
    return runAttributed(this.session.credential?.id ?? null, fn, this.who.owner);
  }

  /** Runs a write after the credential's scopes allow it; its change records the credential. */
  private guarded<T>(action: GuardedAction, what: string, fn: () => T): T {
    assertCredentialAllows(this.session.credential, action, what);
    return this.attributed(fn);
  }

  /** As guarded, for the asynchronous writes: a refusal rejects the promise instead of throwing. */
  private async guardedAsync<T>(action: GuardedAction, what: string, fn: () => Promise<T>): Promise<T> {
    assertCredentialAllows(this.session.credential, action, what);
    return this.attributed(fn);
  }

  get owner(): string {
    return this.who.owner;
  }

  get role(): string {
    return roleOf(this.who.owner);
  }

  private refEnv(scope: OwnerScope = this.role): ReferenceEnv {
    return { store: this.engine.store, scope, workspaceRoot: this.workspaceRoot, host: this.host };
  }

  private importance(v: Importance | undefined): number | undefined {
    if (v === undefined) return undefined;
    if (typeof v === 'number') {
      if (!(v >= 0 && v <= 10)) throw badInput(`importance ${v} is outside [0, 10]`, { field: 'importance' });
      return v;
    }
    return toNumeric('importance', v);
  }

  /** The fields remember, todoOpen and intentAdd share: title, importance, tags and captured references. */
  private sharedFields(input: Pick<RememberInput, 'title' | 'importance' | 'tags' | 'references'>): Partial<Pick<Memory, 'title' | 'importance' | 'tags' | 'references'>> {
    const importance = this.importance(input.importance);
    const references = this.capture(input.references);
    return {
      ...(input.title !== undefined ? { title: input.title } : {}),
      ...(importance !== undefined ? { importance } : {}),
      ...(input.tags ? { tags: input.tags } : {}),
      ...(references ? { references } : {}),
    };
  }

  private capture(specs: string[] | undefined): Memory['references'] | undefined {
    if (!specs) return undefined;
    const env = this.refEnv();
    const now = this.engine.now();
    return specs.map((s, i) => captureRef(env, s, now, `references[${i}]`));
  }

  private find(idOrPrefix: string): Memory | null {
    const id = this.engine.store.resolveId(idOrPrefix);
    return id ? this.engine.store.get(id) : null;
  }

  /** Resolves a memory's references for this reader, counting LIVE and DANGLING. */
  resolveReferences(m: Memory): ResolvedRef[] {
    const env = this.refEnv();
    return m.references.map((r) => {
      const resolved = resolveRef(env, r);
      if (resolved.status === 'LIVE') this.counters.refs_resolved += 1;
      else this.counters.refs_dangling += 1;
      return resolved;
    });
  }

  // ------------------------------------------------------------------ writes

  /** Writes a memory (dedup-on-write); returns the id, which is the existing one on a duplicate. */
  remember(input: RememberInput): Promise<RememberResult> {
    return this.guardedAsync('write', 'remember', () => this.rememberNow(input));
  }

  private async rememberNow(input: RememberInput): Promise<RememberResult> {
    if (input.type !== undefined && !isMemoryType(input.type)) throw badInput(`unknown memory type ${JSON.stringify(input.type)}`, { field: 'type' });
    const res = await rememberAs(
      this.engine,
      this.who,
      {
        content: input.content,
        ...(input.type !== undefined ? { type: input.type } : {}),
        ...this.sharedFields(input),
        ...(input.salience !== undefined ? { salience: input.salience } : {}),
        ...(input.entities ? { entities: input.entities } : {}),
        ...(input.source_task_ref !== undefined ? { source_task_ref: input.source_task_ref } : {}),
      },
      { dedup: input.dedup !== false, policy: this.writePolicy, force: input.force === true },
    );
    if (res.reinforced) this.counters.reinforced += 1;
    else this.counters.writes += 1;
    return res;
  }

  /** Refines a memory in place; false when no memory matches the id. Foreign memories are refused. */
  updateMemory(idOrPrefix: string, input: UpdateInput): Promise<boolean> {
    return this.guardedAsync('write', 'update_memory', () => this.updateNow(idOrPrefix, input));
  }

  private async updateNow(idOrPrefix: string, input: UpdateInput): Promise<boolean> {
    const m = this.find(idOrPrefix);
    if (!m) return false;
    assertWritable(m, { owner: this.who.owner });
    const patch: MemoryPatch = {};
    if (input.content !== undefined) patch.content = input.content;
    if (input.title !== undefined) patch.title = input.title;
    if (input.importance !== undefined) patch.importance = Math.max(0, Math.min(10, this.importance(input.importance)!));
    if (input.type !== undefined) {
      if (!isMemoryType(input.type)) throw badInput(`unknown memory type ${JSON.stringify(input.type)}`, { field: 'type' });
      patch.type = input.type;
    }
    if (input.tags !== undefined) patch.tags = input.tags;
    if (input.status !== undefined) {
      const type = patch.type ?? m.type;
      if (type !== 'todo') throw badInput(`status applies only to todo memories (this one is ${type})`, { field: 'status' });
      patch.status = toStatus(input.status);
    }
    if (input.references !== undefined) patch.references = this.capture(input.references)!;
    await updateMemory(this.engine, m.id, patch, { actor: { owner: this.who.owner }, asAgentAccess: true, reader: this.who, label: `agent update ${m.id.slice(0, 8)}` });
    return true;
  }

  /** Archives a memory the agent judges wrong or obsolete (with a tombstone); false when no memory matches. */
  forget(idOrPrefix: string): Promise<boolean> {
    return this.guardedAsync('write', 'forget', () => this.forgetNow(idOrPrefix));
  }

  private async forgetNow(idOrPrefix: string): Promise<boolean> {
    const m = this.find(idOrPrefix);
    if (!m) return false;
    assertWritable(m, { owner: this.who.owner });
    const store = this.engine.store;
    // As the reference: the row is archived, not deleted (its history stays inspectable). A
    // value-level tombstone is written with it, so writing the same content again is noticed.
    store.change(`forget ${m.id.slice(0, 8)}`, 'memory.forget', () => {
      putTombstone(store, { hash: contentHash(m.content), memory_id: m.id, owner: m.owner, ts: this.engine.now(), head: memoryHead(m) });
      store.setArchived(m.id, true);
    });
    this.counters.pruned += 1;
    return true;
  }

  /**
   * Erases memories of the agent's own role for good (core/erase/erase.ts): from every place their
   * content lives, with no undo. A shared (unowned) memory or another role's is refused whole,
   * naming it; an operator erases those. Resolves with the receipt (counts per place, when, by whom).
   */
  erase(idsOrPrefixes: readonly string[]): Promise<EraseReceipt> {
    return this.guardedAsync('write', 'erase', async () => {
      const credential = this.session.credential;
      const by = credential ? `agent ${this.who.owner} (credential ${credential.id})` : `agent ${this.who.owner}`;
      const receipt = await this.session.erase({ kind: 'ids', ids: [...idsOrPrefixes] }, { by, agentOwner: this.who.owner });
      this.counters.pruned += receipt.memories.live;
      return receipt;
    });
  }

  /**
   * Adds a directed edge a → b (the source must be writable; the target may be anyone's). A note
   * flags a contradiction: only with `contradicts`, and the conflict queue shows it beside the pair.
   */
  associate(a: string, b: string, relation = 'related', note?: string): { src: string; dst: string; relation: string; changed: boolean } {
    if (note !== undefined && note.trim() !== '' && relation !== 'contradicts') {
      throw badInput(`a note flags a contradiction: use relation "contradicts" with it (got ${JSON.stringify(relation)})`, { field: 'note' });
    }
    if (note !== undefined && note.trim() !== '') {
      return this.guarded('write', 'associate', () => ({ ...flagContradiction(this.engine, a, b, note, { actor: { owner: this.who.owner } }), relation }));
    }
    return this.guarded('write', 'associate', () => {
      const r = linkMemories(this.engine, a, b, relation, 1.0, { owner: this.who.owner });
      const store = this.engine.store;
      return { src: requireMemoryId(store, a), dst: requireMemoryId(store, b), relation, changed: r.changed };
    });
  }

  // ------------------------------------------------------------------ reads

  private ranked(mode: 'recalled' | 'searched', query: string, opts: RecallOptions): Promise<RecalledMemory[]> {
    return this.attributed(() => this.rankedNow(mode, query, opts));
  }

  private async rankedNow(mode: 'recalled' | 'searched', query: string, opts: RecallOptions): Promise<RecalledMemory[]> {
    const scope = readScope(this.who.owner, opts.owner);
    if (opts.owner !== undefined && opts.owner !== null && opts.owner !== this.who.owner) this.counters.cross_owner_recalls += 1;
    const res = await rankForAgent(this.session, scope, mode, { query, k: opts.k, hops: opts.hops, include_superseded: opts.include_superseded });
    const byId = (res as WithRecalledMemories)[RECALLED_MEMORIES] ?? this.engine.store.getMany(res.rows.map((r) => r.id));
    const out = res.rows.flatMap((row) => {
      const m = byId.get(row.id);
      return m ? [this.recalledView(m, row)] : [];
    });
    this.counters.recalls += 1;
    this.counters.recalled_items += out.length;
    return out;
  }

  /**
   * Runs a read for this agent: its accesses record the credential, and `fn` gets the scope the
   * agent reads in (its role, or the one it asked for). For tools built beside this class (the
   * conflict queue, core/host/agent-conflicts.ts).
   */
  readAs<T>(fn: (scope: OwnerScope) => T, owner?: string | null): T {
    return this.attributed(() => fn(readScope(this.who.owner, owner)));
  }

  /** Runs a write for this agent once its credential allows writes: `fn` gets nooa's write actor and the agent's own read scope. */
  writeAs<T>(what: string, fn: (actor: { owner: string }, scope: OwnerScope) => Promise<T>): Promise<T> {
    return this.guardedAsync('write', what, () => fn({ owner: this.who.owner }, readScope(this.who.owner)));
  }

  private recalledView(m: Memory, row: ExplainRow): RecalledMemory {
    return {
      id: m.id,
      label: memoryLabel(m),
      type: m.type,
      title: m.title,
      content: m.content,
      owner: m.owner,
      status: m.status,
      tags: m.tags,
      importance: m.importance,
      strength: m.strength,
      rank: row.rank,
      score: row.score,
      components: { source: row.source, cos: row.cos, rel: row.rel, rec: row.rec, imp: row.imp, spread: row.spread },
      references: this.resolveReferences(m),
      ...(row.superseded_by ? { superseded_by: row.superseded_by } : {}),
    };
  }

  /** Associative recall (dense + keyword + recency + graph spread); logs `recalled`. */
  recall(query: string, opts: RecallOptions = {}): Promise<RecalledMemory[]> {
    return this.ranked('recalled', query, opts);
  }

  /** Term-focused recall without spread; logs `searched`. */
  search(query: string, opts: Omit<RecallOptions, 'hops'> = {}): Promise<RecalledMemory[]> {
    return this.ranked('searched', query, opts);
  }

  /** Reads the current value behind `kind:key`; a visible `memory:` target logs a `deref` access. */
  deref(spec: string): string {
    return this.attributed(() => this.derefNow(spec));
  }

  private derefNow(spec: string): string {
    const { kind, key } = parseRef(spec, 'ref');
    const env = this.refEnv();
    // The agent's own request: a path that leaves the workspace is an error, not a quiet DANGLING.
    if (kind === 'file') assertContainedFile(this.workspaceRoot, key, 'ref');
    const resolved = resolveRef(env, { kind, key, preview: null, captured_at: this.engine.now() });
    if (resolved.status === 'LIVE') this.counters.refs_resolved += 1;
    else this.counters.refs_dangling += 1;
    if (kind === 'memory' && resolved.status === 'LIVE') {
      const id = this.engine.store.resolveId(key)!;
      this.engine.store.logAccesses([{ id, record: accessRecord(this.engine.now(), 'deref', { reader_owner: this.who.owner, session_ref: this.who.session_ref, query: spec.slice(0, 200) }) }]);
    }
    return renderRef(resolved);
  }

  /** This agent's usage counters plus the store's size and todo counts in its own scope. */
  stats(): MemoryStats {
    const store = this.engine.store;
    const todos = listTodos(store, this.role, ['open', 'done', 'dropped']);
    return {
      ...this.counters,
      store_size: countMemories(store),
      todos_open: todos.filter((t) => t.status === 'open').length,
      todos_done: todos.filter((t) => t.status !== 'open').length,
    };
  }

  /** A deterministic reflection pass at role scope: plans, applies exactly that plan, returns the report. */
  reflect(): Promise<ReflectionOutcome> {
    return this.guardedAsync('reflect', 'reflect', () => this.reflectNow());
  }

  private async reflectNow(): Promise<ReflectionOutcome> {
    const out = await runReflection(this.engine, this.who.owner);
    this.counters.reflections += 1;
    this.counters.merged += out.report.merged;
    this.counters.edges_added += out.report.edges_added;
    this.counters.pruned += out.report.pruned;
    return out;
  }

  // ------------------------------------------------------------------ todos and intents

  /** Todos in scope (default: own role, open), logged as a `searched` read. */
  todoList(opts: { status?: TodoStatus | 'all'; owner?: string | null } = {}): TodoView[] {
    return this.attributed(() => this.todoListNow(opts));
  }

  private todoListNow(opts: { status?: TodoStatus | 'all'; owner?: string | null }): TodoView[] {
    const scope = readScope(this.who.owner, opts.owner);
    const statuses: TodoStatus[] = opts.status === undefined ? ['open'] : opts.status === 'all' ? ['open', 'done', 'dropped'] : [opts.status];
    const todos = listTodos(this.engine.store, scope, statuses);
    this.logRead(todos, 'searched', `todo_list status=${opts.status ?? 'open'}`);
    return todos.map((t) => todoView(t, this.engine.now()));
  }

  /** Opens a todo (a duplicate of an open todo reinforces it instead). */
  todoOpen(input: Omit<RememberInput, 'type' | 'dedup'>): Promise<RememberResult> {
    return this.guardedAsync('write', 'todo_open', () => this.todoOpenNow(input));
  }

  private async todoOpenNow(input: Omit<RememberInput, 'type' | 'dedup'>): Promise<RememberResult> {
    const res = await rememberAs(
      this.engine,
      this.who,
      { content: input.content, type: 'todo', ...this.sharedFields(input) },
      { policy: this.writePolicy, reinforceOnly: (m) => m.status === 'open' },
    );
    if (res.reinforced) this.counters.reinforced += 1;
    else this.counters.writes += 1;
    return res;
  }

  /** Closes a todo as done (default) or dropped. */
  todoClose(idOrPrefix: string, status: 'done' | 'dropped' = 'done'): Promise<TodoView> {
    return this.guardedAsync('write', 'todo_close', () => this.todoCloseNow(idOrPrefix, status));
  }

  private async todoCloseNow(idOrPrefix: string, status: 'done' | 'dropped'): Promise<TodoView> {
    const m = this.find(idOrPrefix);
    if (!m) throw new MnemoError('not_found', `no memory matches id ${JSON.stringify(idOrPrefix)}`, { field: 'id' });
    if (m.type !== 'todo') throw badInput(`memory ${m.id.slice(0, 8)} is ${m.type}, not a todo; only todos open and close`, { field: 'id' });
    await this.updateMemory(m.id, { status });
    return todoView(requireMemory(this.engine.store, m.id), this.engine.now());
  }

  /** Adds an intent with a trigger; `opens_todo` makes it open a todo when it fires. */
  intentAdd(input: Omit<RememberInput, 'type' | 'dedup'> & { trigger: TriggerSpecInput; opens_todo?: boolean }): Promise<IntentView> {
    return this.guardedAsync('write', 'intent_add', () => this.intentAddNow(input));
  }

  private async intentAddNow(input: Omit<RememberInput, 'type' | 'dedup'> & { trigger: TriggerSpecInput; opens_todo?: boolean }): Promise<IntentView> {
    const trigger = normalizeTrigger(input.trigger, { opensTodo: input.opens_todo === true });
    const res = await rememberAs(
      this.engine,
      this.who,
      { content: input.content, type: 'intent', trigger, ...this.sharedFields(input) },
      // Two reminders with the same words but different triggers are two intents.
      { dedup: false, policy: this.writePolicy },
    );
    this.counters.writes += 1;
    return listIntents(this.engine.store, this.role).find((v) => v.id === res.id)!;
  }

  /** Fires the own role's intents that are due now (time passed, cue in the message, event seen). */
  intentsDue(context: DueContext = {}): Promise<FiredIntent[]> {
    // Firing writes (an intent's state, the todo it opens), so a read-only credential cannot.
    return this.guardedAsync('write', 'intents_due', () => fireDueIntents(this.engine, this.who, this.role, context));
  }

  /** Intents in the own role's scope by state (no access is logged: this is bookkeeping). */
  intents(state: IntentState | 'all' = 'pending'): IntentView[] {
    return listIntents(this.engine.store, this.role, state);
  }

  // ------------------------------------------------------------------ spontaneous injection

  /** The injection block for this turn's context, whatever the cadence (the reference's recall_for_context). */
  async recallForContext(turn: TurnContext): Promise<string> {
    return (await this.attributed(() => this.inject(deriveQueries(turn)))).text ?? '';
  }

  /** Before a turn: injects when the cadence allows; `text: null` means keep the previous block. */
  async beforeTurn(turn: TurnContext): Promise<InjectionResult> {
    const cfg = this.spontaneous;
    if (!cfg.enabled) return { text: '', memory_ids: [] };
    const queries = deriveQueries(turn);
    if (!this.gate.shouldInject(cfg.cadence, queries, turn.task)) return { text: null, memory_ids: [] };
    const started = performance.now();
    const res = await this.attributed(() => this.inject(queries));
    this.counters.injection_ms_total += performance.now() - started;
    this.gate.commit(queries);
    return res;
  }

  /** A new task: the cadence starts over. */
  newTask(task: string | null = null): void {
    this.gate.resetTask(task);
  }

  private async inject(queries: string[]): Promise<{ text: string; memory_ids: string[] }> {
    const cfg = this.spontaneous;
    if (!cfg.enabled || queries.length === 0) return { text: '', memory_ids: [] };
    const k = cfg.top_k || 5;
    const scope = this.role;
    const rows = new Map<string, { row: ExplainRow; query: string }>();
    for (const query of queries) {
      const res = await rankForAgent(this.session, scope, 'dry_run', { query, k, hops: cfg.hops });
      for (const row of res.rows) if (!rows.has(row.id)) rows.set(row.id, { row, query });
    }
    const byId = this.engine.store.getMany([...rows.keys()]);
    const recalled = [...rows.keys()].flatMap((id) => (byId.get(id) ? [byId.get(id)!] : []));
    const todos = cfg.inject_open_todos === 'always' ? openTodos(this.engine.store, scope, cfg.open_todos_k) : [];
    const parts = selectBlock(recalled, todos, cfg, k);
    const text = renderBlock(parts, (m) => this.resolveReferences(m), cfg.context_char_budget);
    const injected = [...parts.shown, ...parts.extraTodos];
    if (text && cfg.log_injections) {
      const now = this.engine.now();
      // Logged without touching: injection never changes strength, recency or ACT-R activation.
      this.engine.store.logAccesses(
        injected.map((m) => {
          const hit = rows.get(m.id);
          const extra = hit
            ? { query: hit.query.slice(0, 200), score: hit.row.score, rank: hit.row.rank, components: { source: hit.row.source, cos: hit.row.cos, rel: hit.row.rel, rec: hit.row.rec, imp: hit.row.imp, spread: hit.row.spread } }
            : { query: 'open todos' };
          return { id: m.id, record: accessRecord(now, 'injected', { reader_owner: this.who.owner, session_ref: this.who.session_ref, ...extra }) };
        }),
      );
    }
    if (text) {
      this.counters.injections += 1;
      this.counters.injected_chars += [...text].length;
    }
    return { text, memory_ids: text ? injected.map((m) => m.id) : [] };
  }

  // ------------------------------------------------------------------ helpers for doors

  /** The most recently written live memories in the own scope, newest first (no access logged). */
  recent(limit = 20): Memory[] {
    const { rows } = this.engine.store.queries.listMemories({ ...scopeFilter(this.role), archived: 'live', sort: 'created_at', dir: 'desc', limit });
    const byId = this.engine.store.getMany(rows.map((r) => r.id));
    return rows.flatMap((r) => (byId.get(r.id) ? [byId.get(r.id)!] : []));
  }

  /** Open todos of the own scope in block order (at most open_todos_k; no access logged). */
  openTodoMemories(k = this.spontaneous.open_todos_k): Memory[] {
    return openTodos(this.engine.store, this.role, k);
  }

  /** Logs a read of these memories by this agent (resources, todo lists). */
  logRead(memories: readonly Memory[], channel: 'searched' | 'injected', query: string): void {
    if (memories.length === 0) return;
    const now = this.engine.now();
    this.attributed(() =>
      this.engine.store.logAccesses(
        memories.map((m, rank) => ({ id: m.id, record: accessRecord(now, channel, { reader_owner: this.who.owner, session_ref: this.who.session_ref, query: query.slice(0, 200), rank }) })),
      ),
    );
  }

  close(): void {
    this.session.close();
  }
}
