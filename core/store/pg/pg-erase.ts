/**
 * The PostgreSQL adapter's side of an erase (shared/erase-run.ts): its row primitives over the
 * store's connection, and its reclaim: `VACUUM (FULL, ANALYZE)` of each table the erase wrote.
 *
 * Why FULL: a deleted or updated row stays in its table's file as a dead tuple until a vacuum, and
 * a plain VACUUM only marks its space free (the bytes stay until reused). VACUUM FULL writes the
 * table (and its TOAST table and indexes) into new files and drops the old ones, so the files under
 * the data directory hold only live rows. ANALYZE with it replaces the column statistics, which
 * keep sample values of each column (pg_statistic).
 *
 * What it costs: each table is rewritten whole, under an ACCESS EXCLUSIVE lock: reads and writes of
 * that table wait until it is done (the journal's and the feed's tables are the big ones). How long
 * it waits to get that lock is bounded (lock_timeout, then it steps aside and tries again), since a
 * VACUUM FULL queued for the lock makes every later request on the table queue behind it; how long
 * it holds it, once granted, is the table's rewrite and is not (the receipt's longest_lock_ms). What
 * no vacuum reaches: the server's write-ahead log and its archive, and backups (docs/erasing.md).
 *
 * The vacuum runs on a connection of its own through `pg`'s asynchronous client, so the thread
 * that answers calls is not held while the server rewrites (the store's own connection waits for
 * each reply, sync-pg.ts).
 */
import type pg from 'pg';
import { pgDriver } from './pg-driver.js';
import type { EraseBackend } from '../shared/erase-run.js';
import type { EraseDb } from '../shared/erase-db.js';
import type { EraseReclaim } from '../port/erase.js';
import type { PgEvidenceMirror } from './pg-evidence-mirror.js';
import { pgJsonField } from './pg-json-sql.js';
import { numbered } from './pg-sql.js';
import type { PgStoreConnection } from './pg-store-connection.js';

/** How long one try of a table's VACUUM FULL waits for its lock, and how long it keeps trying. */
const LOCK_WAIT_MS = 1000;
const LOCK_TRIES_MS = 120_000;
/** PostgreSQL's "lock_not_available" (lock_timeout expired). */
const LOCK_NOT_AVAILABLE = '55P03';

/** Runs one table's rewrite, trying again while its lock is not granted within a try; how long the rewrite took once it ran. */
async function rewriteTable(client: pg.Client, sql: string): Promise<{ ok: true; ms: number } | { ok: false; error: string }> {
  const until = performance.now() + LOCK_TRIES_MS;
  for (;;) {
    const t0 = performance.now();
    try {
      await client.query(sql);
      return { ok: true, ms: performance.now() - t0 };
    } catch (err) {
      const e = err as Error & { code?: string };
      if (e.code !== LOCK_NOT_AVAILABLE) return { ok: false, error: e.message };
      if (performance.now() >= until) return { ok: false, error: `its lock was not granted in ${LOCK_TRIES_MS / 1000} s of tries (other sessions held the table), so it was not rewritten: its dead rows keep their bytes until a later VACUUM` };
      await new Promise((r) => setTimeout(r, 250));
    }
  }
}

export function pgEraseBackend(conn: PgStoreConnection, evidence: PgEvidenceMirror): EraseBackend {
  let present: Set<string> | null = null;
  const db: EraseDb = {
    backend: 'postgres',
    all: <R>(sql: string, params: readonly unknown[] = []) => conn.db().query(numbered(sql), params) as R[],
    run: (sql, params = []) => conn.later(numbered(sql), params),
    t: (name) => conn.table(name),
    has: (table) => (present ??= conn.tablesPresent()).has(table),
    inJson: (col) => `${col} IN (SELECT json_array_elements_text(?::json))`,
    holds: (col) => `strpos(lower(${col}), ?) > 0`,
    jsonText: (col, path) => path.reduce((expr, key) => pgJsonField(expr, key), col),
    accessMarker: (col) => `json_build_object('added', 0, 'dropped', '[]'::json, 'counts', ${pgJsonField(col, 'counts')}::json)::text`,
  };
  return {
    db,
    begin() {},
    end() {},
    afterChange() {
      // Its copy of the evidence may hold scrubbed words: read again at the next search.
      evidence.forget();
    },
    async reclaim(tables): Promise<EraseReclaim> {
      const started = performance.now();
      const problems: string[] = [];
      const rewrote: string[] = [];
      const client = new (pgDriver().Client)({ connectionString: conn.url.connection });
      let before: number | null = null;
      let after: number | null = null;
      let longest = 0;
      const size = async (): Promise<number> => {
        const r = await client.query<{ n: string }>(`SELECT coalesce(sum(pg_total_relation_size(c.oid)), 0)::text AS n FROM pg_class c JOIN pg_namespace s ON s.oid = c.relnamespace WHERE s.nspname = $1 AND c.relkind = 'r'`, [conn.url.schema]);
        return Number(r.rows[0]!.n);
      };
      try {
        await client.connect();
        before = await size();
        // A VACUUM FULL waiting for its lock makes every later read and write of the table queue
        // behind it: it waits at most LOCK_WAIT_MS a try, then steps aside and tries again.
        await client.query(`SET lock_timeout = ${LOCK_WAIT_MS}`);
        for (const table of tables) {
          const r = await rewriteTable(client, `VACUUM (FULL, ANALYZE) ${conn.baseTable(table)}`);
          if (r.ok) {
            rewrote.push(table);
            longest = Math.max(longest, r.ms);
          } else problems.push(`${table}: ${r.error}`);
        }
        // ANALYZE wrote new statistics rows; the old ones (sample values of each column) are dead
        // tuples of the catalog until it is vacuumed, which only its owner (a superuser) may do.
        if (rewrote.length > 0) {
          const [su] = (await client.query<{ su: boolean }>('SELECT rolsuper AS su FROM pg_roles WHERE rolname = current_user')).rows;
          if (su?.su) await client.query('VACUUM FULL pg_catalog.pg_statistic');
          else problems.push('pg_statistic (the column statistics, which keep sample values) could not be rewritten: that takes a superuser; its old rows go at the next autovacuum of the catalog');
        }
        after = await size();
      } catch (err) {
        problems.push((err as Error).message);
      } finally {
        await client.end().catch(() => {});
      }
      return { method: 'vacuum_full', rewrote, seconds: Math.round(performance.now() - started) / 1000, bytes_before: before, bytes_after: after, longest_lock_ms: Math.round(longest), problems };
    },
  };
}
