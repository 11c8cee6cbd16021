/**
 * Saved scoring profiles and the default profile on PostgreSQL (saved-profiles.ts is SQLite's,
 * and holds the rule of setting the default, which both adapters run): the rows of
 * `mnemo_profiles`, and the journal targets for them and for `mnemo_meta` values, with the
 * SQLite images' shapes (`profile:<name>` a row in column order, `meta:<key>` a `{ value }`).
 */
import type { JournalledStore, JournalTarget } from '../shared/journal.js';
import type { SavedProfileRow } from '../sqlite/saved-profiles.js';
import type { StoreHandle } from '../shared/store-handle.js';
import { deletePgMeta, readPgMeta, writePgMeta } from './pg-meta.js';
import type { PgStoreConnection } from './pg-store-connection.js';

const COLS = 'name, base, config, created_at, updated_at, default_since';

function profileOf(r: Record<string, unknown>): SavedProfileRow {
  return {
    name: r['name'] as string,
    base: r['base'] as string,
    config: r['config'] as string,
    created_at: r['created_at'] as number,
    updated_at: r['updated_at'] as number,
    default_since: r['default_since'] as number | null,
  };
}

export class PgSavedProfiles {
  constructor(private readonly conn: PgStoreConnection) {}

  private get table(): string {
    return this.conn.table('mnemo_profiles');
  }

  private q(sql: string, params: readonly unknown[] = []): Record<string, unknown>[] {
    return this.conn.db().query(sql, params);
  }

  row(name: string): SavedProfileRow | null {
    const [r] = this.q(`SELECT ${COLS} FROM ${this.table} WHERE name = $1`, [name]);
    return r ? profileOf(r) : null;
  }

  rows(): SavedProfileRow[] {
    return this.q(`SELECT ${COLS} FROM ${this.table} ORDER BY name`).map(profileOf);
  }

  /** Inserts or replaces (SQLite's INSERT OR REPLACE). */
  put(p: SavedProfileRow): void {
    this.q(
      `INSERT INTO ${this.table}(${COLS}) VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT (name) DO UPDATE SET base = excluded.base, config = excluded.config, created_at = excluded.created_at, updated_at = excluded.updated_at, default_since = excluded.default_since`,
      [p.name, p.base, p.config, p.created_at, p.updated_at, p.default_since],
    );
  }

  delete(name: string): void {
    this.q(`DELETE FROM ${this.table} WHERE name = $1`, [name]);
  }

  /** Writes a saved profile inside the open change (journalled): its before-image goes to the change first. */
  putInChange(store: JournalledStore, row: SavedProfileRow): void {
    store.ensureMnemo();
    store.journal.capture(`profile:${row.name}`);
    this.put(row);
  }

  /** Deletes a saved profile inside the open change (journalled). The caller has refused the default. */
  deleteInChange(store: JournalledStore, name: string): void {
    store.ensureMnemo();
    store.journal.capture(`profile:${name}`);
    this.delete(name);
  }

  stamp(name: string, since: number | null): void {
    this.q(`UPDATE ${this.table} SET default_since = $1 WHERE name = $2`, [since, name]);
  }

  /** Journal rows `profile:<name>`. */
  target(): JournalTarget<StoreHandle> {
    return {
      ns: 'profile',
      snapshot: (_store, name) => this.row(name),
      restore: (_store, name, image) => (image === null ? this.delete(name) : this.put(image as SavedProfileRow)),
    };
  }

  /** Journal rows `meta:<key>`: one mnemo_meta value, as `{ value }`. */
  metaTarget(): JournalTarget<StoreHandle> {
    return {
      ns: 'meta',
      snapshot: (_store, key) => {
        const value = readPgMeta(this.conn, key);
        return value === null ? null : { value };
      },
      restore: (_store, key, image) => (image === null ? deletePgMeta(this.conn, key) : writePgMeta(this.conn, key, (image as { value: string }).value)),
    };
  }
}
