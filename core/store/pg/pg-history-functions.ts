/**
 * Time travel on a read replica. A store as of an instant reads nooa's two tables through session
 * objects that show the rows of then (pg-history-views.ts): on a primary, temporary tables and
 * views; a hot standby can make neither. So the feed's DDL (level 5, pg-feed-ddl.ts) also makes two
 * functions in the store's schema, each the table's current rows less those a session setting
 * hides, plus the rows of then that another setting holds as JSON; a connection to a standby
 * fills the settings (set_config works there) and names the functions where it would name the
 * views. Each is one SELECT in SQL, STABLE and not SECURITY DEFINER, so PostgreSQL inlines it into
 * the query that calls it (its WHERE reaches the table's indexes) and row-level security holds as
 * it does on the table itself.
 */
import { ident } from './pg-url.js';

/** The session settings a standby's past connection fills: the rows of then (a JSON array of whole rows) and the keys they hide. */
export const HISTORY_SETTINGS = {
  memories: 'mnemo.then_memories',
  memoriesHidden: 'mnemo.then_memories_hidden',
  edges: 'mnemo.then_edges',
  edgesHidden: 'mnemo.then_edges_hidden',
} as const;

/** The function that stands for a table as of the instant the settings hold. */
export function historyFunction(schema: string, table: 'memories' | 'memory_edges'): string {
  return `${ident(schema)}.${ident(`mnemo_then_${table}`)}()`;
}

const setting = (name: string, empty: string) => `coalesce(nullif(current_setting('${name}', true), ''), '${empty}')`;

/** The two functions' definitions (each can run again: it replaces). */
export function historyFunctionsDdl(schema: string): string[] {
  const t = (name: string) => `${ident(schema)}.${ident(name)}`;
  const rowsOf = (table: string, rows: string) => `SELECT * FROM json_populate_recordset(NULL::${t(table)}, ${setting(rows, '[]')}::json)`;
  return [
    `CREATE OR REPLACE FUNCTION ${historyFunction(schema, 'memories')} RETURNS SETOF ${t('memories')} LANGUAGE sql STABLE AS $$
       SELECT m.* FROM ${t('memories')} m
       WHERE NOT EXISTS (SELECT 1 FROM json_array_elements_text(${setting(HISTORY_SETTINGS.memoriesHidden, '[]')}::json) h(id) WHERE h.id = m.id)
       UNION ALL ${rowsOf('memories', HISTORY_SETTINGS.memories)}
     $$`,
    `CREATE OR REPLACE FUNCTION ${historyFunction(schema, 'memory_edges')} RETURNS SETOF ${t('memory_edges')} LANGUAGE sql STABLE AS $$
       SELECT e.* FROM ${t('memory_edges')} e
       WHERE NOT EXISTS (SELECT 1 FROM json_to_recordset(${setting(HISTORY_SETTINGS.edgesHidden, '[]')}::json) h(src text, dst text, type text)
                         WHERE h.src = e.src AND h.dst = e.dst AND h.type = e.type)
       UNION ALL ${rowsOf('memory_edges', HISTORY_SETTINGS.edges)}
     $$`,
  ];
}

/**
 * A column's value as json_populate_recordset reads it back exactly: a float that JSON has no
 * number for (NaN, ±Infinity, −0) as text, bytes as bytea's hex text.
 */
export function settingValue(v: unknown): unknown {
  if (typeof v === 'number') return Number.isFinite(v) && !Object.is(v, -0) ? v : String(Object.is(v, -0) ? '-0' : v);
  if (v instanceof Uint8Array) return `\\x${Buffer.from(v).toString('hex')}`;
  if (typeof v === 'bigint') return v.toString();
  return v;
}
