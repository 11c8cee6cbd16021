/**
 * The PostgreSQL journal targets of saved scoring profiles and of `mnemo_meta` values (the rows
 * are read and written once for both backends in queries/saved-profiles.ts), with the SQLite
 * images' shapes (`profile:<name>` a row in column order, `meta:<key>` a `{ value }`).
 */
import type { JournalTarget } from '../shared/journal.js';
import type { StoreHandle } from '../shared/store-handle.js';
import { deletePgMeta, readPgMeta, writePgMeta } from './pg-meta.js';
import type { PgStoreConnection } from './pg-store-connection.js';
import type { SavedProfileRow } from '../port/store-rows.js';
import { profileOf } from '../queries/saved-profiles.js';

const COLS = 'name, base, config, created_at, updated_at, default_since';

export class PgSavedProfiles {
  constructor(private readonly conn: PgStoreConnection) {}

  private get table(): string {
    return this.conn.table('mnemo_profiles');
  }

  private q(sql: string, params: readonly unknown[] = []): Record<string, unknown>[] {
    return this.conn.db().query(sql, params);
  }

  row(name: string): SavedProfileRow | null {
    const [r] = this.conn.read().query(`SELECT ${COLS} FROM ${this.table} WHERE name = $1`, [name]);
    return r ? profileOf(r) : null;
  }

  /** Inserts or replaces (SQLite's INSERT OR REPLACE): a restore. */
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
