/**
 * What changed between two instants (store.diff): each memory and edge whose row differs between
 * the two, classified (added, changed, archived, restored, deleted, accessed; linked, unlinked,
 * changed), with the fields that differ and who made the changes in between. A memory changed and
 * changed back is not listed: the diff compares the two states, the authors say who passed through.
 */
import { memoryHead } from '../model/memory.js';
import type { ChangeAuthor, EdgeDiffRow, MemoryChangeKind, MemoryDiffRow, StoreDiff } from '../model/history.js';
import type { EdgeImage, HistoryChanges, MemoryImage, RowAuthor, StoreReader } from '../store/port/port.js';

export interface DiffOptions {
  includeAccesses: boolean;
  limit: number;
}

const COLUMNS = ['type', 'content', 'importance', 'salience', 'strength', 'created_at', 'last_accessed', 'access_count', 'archived', 'owner', 'status'] as const;

/** What an access changes (log_access): the ring, the counters, strength and recency. */
const ACCESS_FIELDS = new Set([
  'strength',
  'last_accessed',
  'access_count',
  'access_log',
  'recalled_count',
  'searched_count',
  'injected_count',
  'reinforced_count',
  'deref_count',
  'last_accessed_at',
]);

export function storeDiff(store: StoreReader, fromAt: number, toAt: number, opts: DiffOptions): StoreDiff {
  return store.readConsistent(() => {
    const from = store.asOf(fromAt);
    const to = store.asOf(toAt);
    const changes = store.changesBetween(from.position, to.position);
    const counts: StoreDiff['counts'] = {
      memories: { added: 0, changed: 0, archived: 0, restored: 0, deleted: 0, accessed: 0 },
      edges: { linked: 0, unlinked: 0, changed: 0 },
    };
    const memories: MemoryDiffRow[] = [];
    const edges: EdgeDiffRow[] = [];
    let truncated = false;
    const author = authorsOf(changes);
    for (const t of changes.memories) {
      const row = memoryRow(t.key, t.from, t.to);
      if (!row) continue;
      counts.memories[row.kind]++;
      if (row.kind === 'accessed' && !opts.includeAccesses) continue;
      if (memories.length >= opts.limit) {
        truncated = true;
        continue;
      }
      memories.push({ ...row, authors: author(t.authors), changes: t.authors.length });
    }
    for (const t of changes.edges) {
      const row = edgeRow(t.from, t.to);
      if (!row) continue;
      counts.edges[row.kind]++;
      if (edges.length >= opts.limit) {
        truncated = true;
        continue;
      }
      edges.push({ ...row, authors: author(t.authors), changes: t.authors.length });
    }
    return { from, to, memories, edges, counts, truncated };
  });
}

function memoryRow(id: string, from: MemoryImage | null, to: MemoryImage | null): Omit<MemoryDiffRow, 'authors' | 'changes'> | null {
  if (!from && !to) return null;
  if (!from) return { id, head: headOf(to!), kind: 'added', fields: [] };
  if (!to) return { id, head: headOf(from), kind: 'deleted', fields: [] };
  const fields = changedFields(from, to);
  if (fields.length === 0) return null;
  const kind: MemoryChangeKind =
    from.archived !== to.archived ? (to.archived ? 'archived' : 'restored') : fields.every((f) => ACCESS_FIELDS.has(f)) ? 'accessed' : 'changed';
  return { id, head: headOf(to), kind, fields };
}

/** The columns that differ, then the keys of nooa's `data` that differ (a key named like a column is reported once). */
export function changedFields(from: MemoryImage, to: MemoryImage): string[] {
  const out: string[] = COLUMNS.filter((c) => from[c] !== to[c]);
  if (!sameBlob(from.embedding, to.embedding)) out.push('embedding');
  const a = parseData(from.data);
  const b = parseData(to.data);
  for (const key of new Set([...Object.keys(a), ...Object.keys(b)])) {
    if (out.includes(key)) continue;
    if (JSON.stringify(a[key]) !== JSON.stringify(b[key])) out.push(key);
  }
  return out;
}

function edgeRow(from: EdgeImage | null, to: EdgeImage | null): Omit<EdgeDiffRow, 'authors' | 'changes'> | null {
  const e = to ?? from;
  if (!e) return null;
  const key = { src: e.src, dst: e.dst, type: e.type };
  if (!from) return { ...key, kind: 'linked', fields: [] };
  if (!to) return { ...key, kind: 'unlinked', fields: [] };
  const fields = (['weight', 'created_at'] as const).filter((f) => from[f] !== to[f]);
  return fields.length ? { ...key, kind: 'changed', fields } : null;
}

/** The distinct writers of a key's changes, in the order they first wrote. */
function authorsOf(changes: HistoryChanges): (rows: RowAuthor[]) => ChangeAuthor[] {
  return (rows) => {
    const seen = new Map<string, ChangeAuthor>();
    for (const r of rows) {
      const key = `${r.change_id ?? ''}\u0000${r.writer ?? ''}`;
      if (!seen.has(key)) seen.set(key, describeAuthor(r, changes));
    }
    return [...seen.values()];
  };
}

function describeAuthor(r: RowAuthor, changes: HistoryChanges): ChangeAuthor {
  const journal = r.change_id === null ? undefined : changes.journal.get(r.change_id);
  const credential = journal?.credential_id ?? r.credential_id;
  const owner = credential === null ? (journal?.agent_owner ?? null) : (changes.credentialOwners.get(credential) ?? null);
  const by = owner ? ` by agent ${owner}` : credential ? ` by agent credential ${credential}` : '';
  const common = { change_id: r.change_id, label: journal?.label ?? null, writer: r.writer, credential_id: credential, owner };
  if (r.change_id !== null) return { kind: 'journal', ...common, text: `change ${r.change_id}${journal ? ` "${journal.label}"` : ''}${by}` };
  if (r.writer !== null) return { kind: 'mnemo', ...common, text: `Mnemo, outside the journal (an access or an index write)${by}` };
  return { kind: 'foreign', ...common, text: 'a foreign writer (not Mnemo)' };
}

function headOf(m: MemoryImage): string {
  const title = parseData(m.data)['title'];
  return memoryHead({ title: typeof title === 'string' ? title : null, content: m.content });
}

function parseData(data: string): Record<string, unknown> {
  try {
    const v = JSON.parse(data) as unknown;
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

function sameBlob(a: Buffer | null, b: Buffer | null): boolean {
  if (a === null || b === null) return a === b;
  return a.equals(b);
}
