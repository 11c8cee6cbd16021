/**
 * A full dump of a SQLite store for comparing copies: every table (SQLite's own sqlite_sequence
 * and the FTS5 index's doc sizes included), every row in rowid (or primary key) order, each value
 * with its storage class (typeof()) and exactly: integers as decimal text (64 bits), reals as the
 * shortest text that reads back the same double, blobs in hex. Plus nooa's `user_version`.
 */
import Database from 'better-sqlite3';

export type StoreDump = Record<string, unknown>;

function exact(v: unknown): unknown {
  if (typeof v === 'bigint') return v.toString();
  if (typeof v === 'number') return Object.is(v, -0) ? '-0' : String(v);
  if (Buffer.isBuffer(v)) return `x'${v.toString('hex')}'`;
  return v;
}

export function dumpStore(path: string): StoreDump {
  const db = new Database(path, { readonly: true });
  try {
    const dump: StoreDump = { user_version: db.pragma('user_version', { simple: true }) };
    const tables = db.prepare("SELECT name, sql FROM sqlite_master WHERE type = 'table' ORDER BY name").all() as { name: string; sql: string | null }[];
    for (const { name, sql } of tables) {
      // The FTS5 index's own shadow tables are its internal layout; its doc sizes say what it indexes.
      if (name.startsWith('mnemo_delta_fts') && name !== 'mnemo_delta_fts_docsize') continue;
      if (sql?.startsWith('CREATE VIRTUAL')) continue;
      const cols = (db.prepare('SELECT name, pk FROM pragma_table_info(?) ORDER BY cid').all(name) as { name: string; pk: number }[]);
      const withoutRowid = /WITHOUT\s+ROWID\s*$/i.test(sql ?? '');
      const order = withoutRowid ? cols.filter((c) => c.pk > 0).sort((a, b) => a.pk - b.pk).map((c) => `"${c.name}"`).join(', ') : 'rowid';
      const select = [...(withoutRowid ? [] : ['rowid AS "(rowid)"']), ...cols.flatMap((c) => [`typeof("${c.name}") AS "${c.name}:type"`, `"${c.name}"`])];
      const rows = db.prepare(`SELECT ${select.join(', ')} FROM "${name}" ORDER BY ${order}`).safeIntegers(true).all() as Record<string, unknown>[];
      dump[name] = rows.map((r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, exact(v)])));
    }
    return dump;
  } finally {
    db.close();
  }
}
