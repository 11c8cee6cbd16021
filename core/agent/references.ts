/**
 * References: memories that point at live state (`kind:key`) instead of copying it. A reference is
 * resolved when the memory is read, by strict name lookup and never by evaluation (stored strings
 * may come from other agents on a shared store). It renders LIVE with the current value, or
 * DANGLING with the snapshot taken when it was written, stamped with that time.
 *
 * What each kind reads:
 * - `var`, `context`: the host's lookups (an agent's variables and context blocks). Without a host
 *   lookup they dangle.
 * - `file`: a path relative to the workspace root, contained in it (see workspace.ts).
 * - `todo`: the host's todo lookup when it has one, else a todo memory of this store.
 * - `memory`: a memory of this store the reader may see (a foreign or archived one dangles, so a
 *   reference never leaks what the owner policy hides).
 */
import { badInput } from '../errors.js';
import { REF_KINDS, type RefKind } from '../model/enums.js';
import { type Memory, type MemoryRef } from '../model/memory.js';
import { ownerMatches, type OwnerScope } from '../model/owner.js';
import { assertContainedFile, containFile, readContainedFile } from './workspace.js';
import type { StoreWriter } from '../store/port/port.js';

/** Previews and rendered live values are clipped to this many characters. */
export const MAX_VALUE_CHARS = 200;

/** Lookups the host supplies. Each returns undefined when the name is not set. */
export interface ReferenceHost {
  var?(key: string): unknown;
  context?(key: string): unknown;
  /** A todo item: a string, or an object with `title` (or `content`) and `status`. */
  todo?(key: string): unknown;
}

export interface ReferenceEnv {
  store: StoreWriter;
  /** The reader's visibility for `memory:` and `todo:` targets. */
  scope: OwnerScope;
  /** Where `file:` references may point; null: file references are off. */
  workspaceRoot: string | null;
  host?: ReferenceHost | undefined;
}

export interface ResolvedRef {
  spec: string;
  kind: RefKind;
  key: string;
  status: 'LIVE' | 'DANGLING';
  /** The clipped live value, or the write-time preview when dangling. */
  value: string;
  preview: string | null;
  captured_at: number;
  /** Why it dangles (missing, not visible, refused path, no host lookup). */
  reason?: string;
}

export function isRefKind(v: string): v is RefKind {
  return (REF_KINDS as readonly string[]).includes(v);
}

/** Splits `kind:key`; anything malformed is an error (no fallback). */
export function parseRef(spec: string, field = 'references'): { kind: RefKind; key: string } {
  const at = typeof spec === 'string' ? spec.indexOf(':') : -1;
  const kind = at < 0 ? '' : spec.slice(0, at);
  const key = at < 0 ? '' : spec.slice(at + 1).trim();
  if (at < 0 || !isRefKind(kind) || key === '') {
    throw badInput(`malformed reference ${JSON.stringify(spec)}; expected '<kind>:<key>' with kind one of ${REF_KINDS.join(', ')}`, { field });
  }
  return { kind, key };
}

export function refSpec(ref: Pick<MemoryRef, 'kind' | 'key'>): string {
  return `${ref.kind}:${ref.key}`;
}

export function clip(text: string, limit = MAX_VALUE_CHARS): string {
  const flat = text.replace(/\n/g, ' ').trim();
  const chars = [...flat];
  return chars.length <= limit ? flat : `${chars.slice(0, limit).join('').trimEnd()} …`;
}

function show(value: unknown, quoteStrings: boolean): string {
  if (typeof value === 'string') return quoteStrings ? JSON.stringify(value) : value;
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

function visibleMemory(env: ReferenceEnv, key: string): Memory | null {
  let id: string | null;
  try {
    id = env.store.resolveId(key);
  } catch {
    return null; // an ambiguous prefix from stored content degrades to DANGLING
  }
  const m = id ? env.store.get(id) : null;
  if (!m || m.archived || !ownerMatches(m.owner, env.scope)) return null;
  return m;
}

function todoText(item: unknown): string | null {
  if (item === undefined || item === null) return null;
  if (typeof item !== 'object') return String(item);
  const o = item as { title?: unknown; content?: unknown; status?: unknown };
  const title = typeof o.title === 'string' && o.title ? o.title : typeof o.content === 'string' ? o.content : show(item, false);
  return typeof o.status === 'string' && o.status ? `${title} [${o.status}]` : title;
}

/** The current value behind a reference, clipped; `null` with a reason when it does not resolve. */
export function lookupRef(env: ReferenceEnv, kind: RefKind, key: string): { value: string | null; reason?: string } {
  switch (kind) {
    case 'var':
    case 'context': {
      const fn = env.host?.[kind];
      if (!fn) return { value: null, reason: `this host supplies no ${kind} lookup` };
      let v: unknown;
      try {
        v = fn.call(env.host, key);
      } catch {
        v = undefined;
      }
      return v === undefined ? { value: null, reason: `${kind} ${JSON.stringify(key)} is not set` } : { value: clip(show(v, kind === 'var')) };
    }
    case 'file': {
      const c = containFile(env.workspaceRoot, key);
      if (!c.ok) return { value: null, reason: `refused: ${c.message}` };
      const text = readContainedFile(env.workspaceRoot, key);
      return text === null ? { value: null, reason: 'no such readable file' } : { value: clip(text) };
    }
    case 'todo': {
      let item: unknown;
      try {
        item = env.host?.todo?.(key);
      } catch {
        item = undefined;
      }
      const fromHost = todoText(item);
      if (fromHost !== null) return { value: clip(fromHost) };
      const m = visibleMemory(env, key);
      if (m && m.type === 'todo') return { value: clip(`${m.title || m.content} [${m.status ?? 'open'}]`) };
      return { value: null, reason: 'no such todo visible to this reader' };
    }
    case 'memory': {
      const m = visibleMemory(env, key);
      return m ? { value: clip(`[${m.type}] ${m.title || m.content}`) } : { value: null, reason: 'no such memory visible to this reader' };
    }
  }
}

/**
 * Builds a reference from `kind:key`, snapshotting a preview now. A file path that leaves the
 * workspace is refused here (the agent's own write); a target that does not exist yet is allowed.
 */
export function captureRef(env: ReferenceEnv, spec: string, now: number, field = 'references'): MemoryRef {
  const { kind, key } = parseRef(spec, field);
  if (kind === 'file') assertContainedFile(env.workspaceRoot, key, field);
  return { kind, key, preview: lookupRef(env, kind, key).value, captured_at: now };
}

/** Resolves a stored reference against the reader's live state. */
export function resolveRef(env: ReferenceEnv, ref: MemoryRef): ResolvedRef {
  const { value, reason } = lookupRef(env, ref.kind, ref.key);
  const base = { spec: refSpec(ref), kind: ref.kind, key: ref.key, preview: ref.preview, captured_at: ref.captured_at };
  if (value !== null) return { ...base, status: 'LIVE', value };
  return { ...base, status: 'DANGLING', value: ref.preview ?? '(no snapshot captured)', ...(reason ? { reason } : {}) };
}

/** `YYYY-MM-DD HH:MM` in local time, as the reference stamps snapshots. */
export function snapshotStamp(epochSeconds: number): string {
  const d = new Date(epochSeconds * 1000);
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())} ${p(d.getHours())}:${p(d.getMinutes())}`;
}

/** One agent-facing line: `ref kind:key (LIVE) → value` or `ref kind:key (DANGLING; snapshot @ …) → preview`. */
export function renderRef(r: ResolvedRef): string {
  if (r.status === 'LIVE') return `ref ${r.spec} (LIVE) → ${r.value}`;
  return `ref ${r.spec} (DANGLING; snapshot @ ${snapshotStamp(r.captured_at)}) → ${r.value}`;
}
