/**
 * Rows against reads per memory type: the share of the store a type holds next to the share of
 * fetches (recalled + searched + injected + deref) it receives. The paper behind nooa found
 * reflection records were 22% of rows but about 1% of reads; this is the figure that shows it.
 */
import type { EngineReader } from '../engine/engine.js';
import { MEMORY_TYPES } from '../model/enums.js';
import type { OwnerScope } from '../model/owner.js';
import type { RowsVsReads, RowsVsReadsRow } from './types.js';
import { fetchesOf } from './usage.js';
import { iterUsageRecords } from '../store/queries/usage.js';

export function rowsVsReads(engine: EngineReader, owner: OwnerScope, includeArchived = false): RowsVsReads {
  const rows = new Map<string, { rows: number; reads: number; archived: number }>();
  for (const t of MEMORY_TYPES) rows.set(t, { rows: 0, reads: 0, archived: 0 });
  for (const m of iterUsageRecords(engine.store, { owner, includeArchived })) {
    let r = rows.get(m.type);
    if (!r) rows.set(m.type, (r = { rows: 0, reads: 0, archived: 0 }));
    r.rows++;
    if (m.archived) r.archived++;
    r.reads += fetchesOf(m);
  }
  const totalRows = [...rows.values()].reduce((a, r) => a + r.rows, 0);
  const totalReads = [...rows.values()].reduce((a, r) => a + r.reads, 0);
  const out: RowsVsReadsRow[] = [...rows].map(([type, r]) => {
    const rowShare = totalRows ? r.rows / totalRows : 0;
    const readShare = totalReads ? r.reads / totalReads : 0;
    return { type, rows: r.rows, row_share: rowShare, reads: r.reads, read_share: readShare, read_ratio: rowShare > 0 ? readShare / rowShare : null, archived: r.archived };
  });
  out.sort((a, b) => b.rows - a.rows || a.type.localeCompare(b.type));
  return { scope: owner, total_rows: totalRows, total_reads: totalReads, rows: out };
}
