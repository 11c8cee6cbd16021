/**
 * Renaming an owner, written once above the port for both backends: every memory of one owner
 * re-stamped to another, each through the store's own save, so the journal, the change feed and
 * the derived indexes see ordinary writes.
 */
import { badInput } from '../../errors.js';
import { validateOwner } from '../../model/owner.js';
import type { StoreWriter } from '../port/port.js';
import { query } from '../shared/store-query.js';

/** Re-stamps every row of one owner to another, in insertion order; never claims unowned rows. Returns the row count. */
export function renameOwner(store: Pick<StoreWriter, 'transaction' | 'sql' | 'get' | 'save'>, from: string, to: string): number {
  if (from === '') throw badInput('rename_owner never claims unowned rows; give a non-empty source owner', { field: 'from' });
  validateOwner(from, 'from');
  validateOwner(to, 'to');
  // The ids are read inside the transaction, so a row another connection gives `from` meanwhile is not left behind.
  return store.transaction(() => {
    const ids = store.sql.all(query(`SELECT id FROM ${store.sql.table('memories')} WHERE owner = ? ORDER BY rowid`, [from])).map((r) => r['id'] as string);
    for (const id of ids) {
      const m = store.get(id)!;
      m.owner = to;
      store.save(m);
    }
    return ids.length;
  });
}
