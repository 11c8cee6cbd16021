/**
 * Writers for the time-travel acceptance (test/store/time-travel-writers.test.ts): the same scripted
 * operations applied by this process's MemoryStore, by a second Mnemo process, and by the real nooa
 * reference package (support/nooa-writer.py), plus a full-row snapshot of nooa's two tables read
 * on a plain connection of its own.
 */
import { fork, spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import Database from 'better-sqlite3';
import type { Clock } from '../core/clock.js';
import { createMemory } from '../core/model/memory.js';
import type { MemoryStore } from '../core/store/sqlite/sqlite-store.js';
import { requireMemory } from '../core/store/queries/memory-lookups.js';

/** One scripted change. Ids are chosen by the script, so every writer's rows can be named. */
export type WriterOp =
  | { op: 'add'; content: string; importance?: number; tags?: string[] }
  | { op: 'update'; id: string; content: string; importance?: number }
  | { op: 'touch'; id: string; ts: number }
  | { op: 'archive' | 'restore' | 'delete'; id: string }
  | { op: 'link'; id: string; dst: string; type?: string; weight?: number }
  | { op: 'unlink'; id: string; dst: string };

export interface Writer {
  readonly name: string;
  /** Applies one op and resolves with the id it touched (the new id for an add). */
  apply(op: WriterOp): Promise<string>;
  close(): Promise<void>;
}

/** Mnemo's own operations, as any Mnemo writer makes them; every write but an access is journalled. */
export function applyMnemoOp(store: MemoryStore, cmd: WriterOp): string {
  const now = store.clock.now();
  if (cmd.op === 'add') {
    const m = createMemory({ content: cmd.content, importance: cmd.importance ?? 5, tags: cmd.tags ?? [] }, now);
    store.change(`Add ${m.id.slice(0, 6)}`, 'add', () => store.add(m, embeddingOf(cmd.content, store.dim)));
    return m.id;
  }
  const id = cmd.id;
  switch (cmd.op) {
    case 'update':
      store.change('Edit', 'update', () => {
        const m = requireMemory(store, id);
        m.content = cmd.content;
        if (cmd.importance !== undefined) m.importance = cmd.importance;
        store.save(m);
      });
      break;
    case 'touch':
      store.logAccesses([
        { id, record: { ts: cmd.ts, channel: 'recalled', reader_owner: '', session_ref: null, trace_ref: null, query: null, score: null, rank: null, components: null } },
      ]);
      break;
    case 'archive':
    case 'restore':
      store.change(cmd.op, cmd.op, () => (cmd.op === 'archive' ? store.setArchived(id, true) : store.setArchived(id, false)));
      break;
    case 'link':
      store.change('Link', 'link', () => store.addEdge(id, cmd.dst, cmd.type ?? 'related', cmd.weight ?? 1));
      break;
    case 'unlink':
      store.change('Unlink', 'unlink', () => store.removeEdge(id, cmd.dst, 'related'));
      break;
    case 'delete':
      store.change('Delete', 'delete', () => store.delete(id));
      break;
  }
  return id;
}

/** A vector that depends on the text (so every row's embedding blob differs), without an embedder. */
function embeddingOf(text: string, dim: number): Float32Array {
  const v = new Float32Array(dim);
  for (let i = 0; i < text.length; i++) v[(text.charCodeAt(i) * 31 + i) % dim]! += 1 / (i + 1);
  return v;
}

/** The clock Mnemo's writers are given: the wall clock, injected, so their feed rows and a nooa agent's share one time line. */
export const wallClock: Clock = { now: () => Date.now() / 1000 };

/** This process's store as a writer. */
export function inProcessWriter(store: MemoryStore): Writer {
  return { name: 'mnemo', apply: async (op) => applyMnemoOp(store, op), close: async () => store.close() };
}

/** A second Mnemo process (support/history-mnemo-child.ts) on the same file. */
export function mnemoChildWriter(db: string): Writer {
  const child = fork(join(process.cwd(), 'support', 'history-mnemo-child.ts'), [db], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
  return { name: 'mnemo-child', apply: (op) => ask(child, op), close: () => ended(child, () => child.disconnect()) };
}

function ask(child: ChildProcess, op: WriterOp): Promise<string> {
  return new Promise((resolve, reject) => {
    child.once('message', (m: { ok: boolean; id?: string; error?: string }) => (m.ok ? resolve(m.id!) : reject(new Error(`mnemo child: ${m.error}`))));
    child.send(op);
  });
}

/**
 * The nooa reference package: MNEMO_NOOA_REFERENCE, as for the other interoperability tests
 * (test/helpers/nooa-reference.ts), else beside the project (absent on machines without it).
 */
export const NOOA_REFERENCE = process.env['MNEMO_NOOA_REFERENCE']
  ? resolve(process.env['MNEMO_NOOA_REFERENCE'])
  : join(process.cwd(), '..', 'shared', 'reference', 'nooa-memory-0.0.9');

export function nooaAvailable(): boolean {
  return existsSync(join(NOOA_REFERENCE, 'src', 'nooa_memory', 'store.py'));
}

/** A nooa agent (the real reference package, in Python) on the same file. */
export function nooaWriter(db: string): Writer {
  const child = spawn('python3', [join(process.cwd(), 'support', 'nooa-writer.py'), NOOA_REFERENCE, db], { stdio: ['pipe', 'pipe', 'inherit'] });
  const lines = createInterface({ input: child.stdout! });
  const waiting: ((line: string) => void)[] = [];
  lines.on('line', (line) => waiting.shift()?.(line));
  return {
    name: 'nooa',
    apply: (op) =>
      new Promise((resolve, reject) => {
        waiting.push((line) => {
          const m = JSON.parse(line) as { ok: boolean; id?: string; error?: string };
          if (m.ok) resolve(m.id!);
          else reject(new Error(`nooa: ${m.error}`));
        });
        child.stdin!.write(`${JSON.stringify(op)}\n`);
      }),
    close: () => ended(child, () => child.stdin!.end()),
  };
}

function ended(child: ChildProcess, stop: () => void): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.once('exit', () => resolve());
    stop();
  });
}

/** Every column of both tables, rows in key order, `data` parsed (writers format JSON differently). */
export interface TableSnapshot {
  memories: Record<string, unknown>[];
  edges: Record<string, unknown>[];
}

const MEMORY_SQL = 'SELECT id, type, content, importance, salience, strength, created_at, last_accessed, access_count, archived, owner, status, embedding, data FROM memories ORDER BY id';
const EDGE_SQL = 'SELECT src, dst, type, weight, created_at FROM memory_edges ORDER BY src, dst, type';

/** Reads both tables through `db` (a plain connection, or one whose TEMP views show the past). */
export function snapshotTables(db: Database.Database): TableSnapshot {
  const memories = (db.prepare(MEMORY_SQL).all() as Record<string, unknown>[]).map((r) => ({ ...r, data: JSON.parse(r['data'] as string) as unknown }));
  return { memories, edges: db.prepare(EDGE_SQL).all() as Record<string, unknown>[] };
}

/** A snapshot on a connection opened for it and closed after. */
export function snapshotFile(path: string): TableSnapshot {
  const db = new Database(path, { readonly: true });
  try {
    return snapshotTables(db);
  } finally {
    db.close();
  }
}
