/**
 * A strict check of nooa-memory v0.0.9's on-disk layout: tables, columns (name, type, NOT NULL,
 * default, primary key), indexes, user_version, and every row's JSON `data` field by field (name
 * and JSON type, floats written as Python floats). Returns the list of problems (empty = valid).
 */
import Database from 'better-sqlite3';
import { ACCESS_CHANNELS, EDGE_TYPES, MEMORY_TYPES, REF_KINDS } from '../../core/model/enums.js';

type Col = [name: string, type: string, notnull: number, dflt: string | null, pk: number];

const TABLES: Record<string, Col[]> = {
  memories: [
    ['id', 'TEXT', 0, null, 1],
    ['type', 'TEXT', 1, null, 0],
    ['content', 'TEXT', 1, null, 0],
    ['importance', 'REAL', 1, '5.0', 0],
    ['salience', 'REAL', 1, '0.0', 0],
    ['strength', 'INTEGER', 1, '1', 0],
    ['created_at', 'REAL', 1, null, 0],
    ['last_accessed', 'REAL', 1, null, 0],
    ['access_count', 'INTEGER', 1, '0', 0],
    ['archived', 'INTEGER', 1, '0', 0],
    ['owner', 'TEXT', 1, "''", 0],
    ['status', 'TEXT', 0, null, 0],
    ['embedding', 'BLOB', 0, null, 0],
    ['data', 'TEXT', 1, null, 0],
  ],
  memory_edges: [
    ['src', 'TEXT', 1, null, 1],
    ['dst', 'TEXT', 1, null, 2],
    ['type', 'TEXT', 1, null, 3],
    ['weight', 'REAL', 1, '1.0', 0],
    ['created_at', 'REAL', 1, null, 0],
  ],
  maintenance_log: [
    ['ts', 'REAL', 1, null, 0],
    ['kind', 'TEXT', 1, null, 0],
    ['report', 'TEXT', 1, null, 0],
  ],
};

const INDEXES: Record<string, [string, string]> = {
  idx_mem_type: ['memories', 'type'],
  idx_mem_archived: ['memories', 'archived'],
  idx_mem_owner: ['memories', 'owner'],
  idx_mem_status: ['memories', 'status'],
  idx_edge_src: ['memory_edges', 'src'],
  idx_edge_dst: ['memory_edges', 'dst'],
};

type Kind = 'str' | 'str?' | 'int' | 'float' | 'float?' | 'bool' | 'strlist' | 'list' | 'obj?';
const DATA_FIELDS: [string, Kind][] = [
  ['id', 'str'],
  ['type', 'str'],
  ['title', 'str?'],
  ['content', 'str'],
  ['owner', 'str'],
  ['size_chars', 'int'],
  ['token_len', 'int'],
  ['sentence_count', 'int'],
  ['importance', 'float'],
  ['salience', 'float'],
  ['confidence', 'float'],
  ['mood', 'str?'],
  ['strength', 'int'],
  ['reinforcement_count', 'int'],
  ['created_at', 'float'],
  ['last_accessed_at', 'float'],
  ['access_log', 'list'],
  ['access_count', 'int'],
  ['recalled_count', 'int'],
  ['searched_count', 'int'],
  ['injected_count', 'int'],
  ['reinforced_count', 'int'],
  ['deref_count', 'int'],
  ['source_task_ref', 'str?'],
  ['related_files', 'strlist'],
  ['chat_turn_ref', 'str?'],
  ['valid_from', 'float?'],
  ['valid_to', 'float?'],
  ['trigger', 'obj?'],
  ['references', 'list'],
  ['tags', 'strlist'],
  ['entities', 'strlist'],
  ['place_or_task', 'str?'],
  ['archived', 'bool'],
  ['status', 'str?'],
];

function kindOk(v: unknown, kind: Kind): boolean {
  switch (kind) {
    case 'str':
      return typeof v === 'string';
    case 'str?':
      return v === null || typeof v === 'string';
    case 'int':
      return Number.isInteger(v);
    case 'float':
      return typeof v === 'number' && Number.isFinite(v);
    case 'float?':
      return v === null || (typeof v === 'number' && Number.isFinite(v));
    case 'bool':
      return typeof v === 'boolean';
    case 'strlist':
      return Array.isArray(v) && v.every((x) => typeof x === 'string');
    case 'list':
      return Array.isArray(v);
    case 'obj?':
      return v === null || (typeof v === 'object' && !Array.isArray(v));
  }
}

/** True when the raw JSON text writes `"key": <number>` as a Python float (with "." or an exponent). */
function writtenAsFloat(raw: string, key: string): boolean {
  const m = new RegExp(`"${key}": (-?[0-9][0-9.eE+-]*|null)`).exec(raw);
  return !m || m[1] === 'null' || /[.eE]/.test(m[1]!);
}

export function checkNooaLayout(path: string): string[] {
  const problems: string[] = [];
  const db = new Database(path, { readonly: true, fileMustExist: true });
  try {
    const uv = db.pragma('user_version', { simple: true });
    if (uv !== 2) problems.push(`user_version is ${uv}, expected 2`);
    for (const [table, cols] of Object.entries(TABLES)) {
      const info = db.prepare(`PRAGMA table_info(${table})`).all() as { name: string; type: string; notnull: number; dflt_value: string | null; pk: number }[];
      const got = info.map((c) => [c.name, c.type, c.notnull, c.dflt_value, c.pk]);
      if (JSON.stringify(got) !== JSON.stringify(cols)) problems.push(`${table} columns differ: ${JSON.stringify(got)}`);
    }
    for (const [name, [table, col]] of Object.entries(INDEXES)) {
      const row = db.prepare("SELECT tbl_name FROM sqlite_master WHERE type='index' AND name=?").get(name) as { tbl_name: string } | undefined;
      const cols = row ? (db.prepare(`PRAGMA index_info(${name})`).all() as { name: string }[]).map((c) => c.name) : [];
      if (!row || row.tbl_name !== table || cols.join() !== col) problems.push(`index ${name} on ${table}(${col}) missing or different`);
    }
    const rows = db.prepare('SELECT id, type, content, importance, salience, strength, created_at, last_accessed, access_count, archived, owner, status, embedding, data FROM memories').all() as {
      id: string;
      type: string;
      content: string;
      importance: number;
      salience: number;
      strength: number;
      created_at: number;
      last_accessed: number;
      access_count: number;
      archived: number;
      owner: string;
      status: string | null;
      embedding: Buffer | null;
      data: string;
    }[];
    for (const r of rows) {
      let d: Record<string, unknown>;
      try {
        d = JSON.parse(r.data) as Record<string, unknown>;
      } catch {
        problems.push(`${r.id}: data is not JSON`);
        continue;
      }
      if ('edges' in d) problems.push(`${r.id}: data contains edges (they live in memory_edges)`);
      for (const [key, kind] of DATA_FIELDS) {
        if (!(key in d)) problems.push(`${r.id}: data lacks ${key}`);
        else if (!kindOk(d[key], kind)) problems.push(`${r.id}: data.${key} is not ${kind}: ${JSON.stringify(d[key])}`);
        else if ((kind === 'float' || kind === 'float?') && !writtenAsFloat(r.data, key)) problems.push(`${r.id}: data.${key} is written as an int`);
      }
      if (!MEMORY_TYPES.includes(d['type'] as never)) problems.push(`${r.id}: unknown type ${String(d['type'])}`);
      const same: [string, unknown, unknown][] = [
        ['id', r.id, d['id']],
        ['type', r.type, d['type']],
        ['content', r.content, d['content']],
        ['importance', r.importance, d['importance']],
        ['salience', r.salience, d['salience']],
        ['strength', r.strength, d['strength']],
        ['created_at', r.created_at, d['created_at']],
        ['last_accessed', r.last_accessed, d['last_accessed_at']],
        ['access_count', r.access_count, d['access_count']],
      ];
      for (const [col, a, b] of same) if (a !== b) problems.push(`${r.id}: column ${col}=${JSON.stringify(a)} disagrees with data (${JSON.stringify(b)})`);
      if (r.archived !== 0 && r.archived !== 1) problems.push(`${r.id}: archived column is ${r.archived}`);
      if (r.type === 'todo' ? !['open', 'done', 'dropped'].includes(r.status ?? '') : r.status !== null) problems.push(`${r.id}: status ${r.status} invalid for ${r.type}`);
      if (r.embedding && r.embedding.byteLength !== 1024) problems.push(`${r.id}: embedding is ${r.embedding.byteLength} bytes, expected 1024`);
      for (const [i, e] of ((d['access_log'] as Record<string, unknown>[]) ?? []).entries()) {
        const keys = ['ts', 'channel', 'reader_owner', 'session_ref', 'trace_ref', 'query', 'score', 'rank', 'components'];
        if (JSON.stringify(Object.keys(e)) !== JSON.stringify(keys)) problems.push(`${r.id}: access_log[${i}] keys ${Object.keys(e).join(',')}`);
        if (!ACCESS_CHANNELS.includes(e['channel'] as never)) problems.push(`${r.id}: access_log[${i}] channel ${String(e['channel'])}`);
      }
      for (const ref of (d['references'] as Record<string, unknown>[]) ?? []) {
        if (!REF_KINDS.includes(ref['kind'] as never) || JSON.stringify(Object.keys(ref)) !== '["kind","key","preview","captured_at"]') problems.push(`${r.id}: bad reference ${JSON.stringify(ref)}`);
      }
    }
    for (const e of db.prepare('SELECT src, dst, type, weight, created_at FROM memory_edges').all() as { src: string; dst: string; type: string; weight: number; created_at: number }[]) {
      if (!EDGE_TYPES.includes(e.type as never)) problems.push(`edge ${e.src}->${e.dst}: unknown type ${e.type}`);
      if (!(e.weight >= 0 && e.weight <= 1)) problems.push(`edge ${e.src}->${e.dst}: weight ${e.weight}`);
      if (typeof e.created_at !== 'number') problems.push(`edge ${e.src}->${e.dst}: created_at ${String(e.created_at)}`);
    }
  } finally {
    db.close();
  }
  return problems;
}
