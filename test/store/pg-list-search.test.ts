/**
 * The memory list's text search and the maintenance history on PostgreSQL against SQLite: the
 * same memories in a store of each kind must give the same ids for the same words (prefixes,
 * diacritics, an id prefix, archived memories, after an edit and a delete), and the same log with
 * each reflection pass matched to its journal change.
 *
 * What could go wrong: the index reading another title than SQLite's json_extract, missing the
 * archived rows, not following an edit; the history's plan id lookup reading the journal's meta
 * differently.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixedClock } from '../../core/clock.js';
import { createMemory, type Memory } from '../../core/model/memory.js';
import { newTextSearch, type TextSearchIndex } from '../../core/store/derived/text-search.js';
import { PgStore } from '../../core/store/pg/pg-store.js';
import type { StoreWriter } from '../../core/store/port/port.js';
import { MemoryStore } from '../../core/store/sqlite/sqlite-store.js';
import { pgUnavailable, startPg, type PgServer } from '../../support/pg-cluster.js';
import { tempDir } from '../../support/fixture.js';
import { logMaintenance, maintenanceHistory } from '../../core/store/queries/maintenance-log.js';

const NOW = 1_780_000_000;
const unavailable = pgUnavailable();

const MEMORIES: Memory[] = [
  createMemory({ content: 'Deployed the billing service on Friday', title: 'Billing deploy' }, NOW),
  createMemory({ content: 'The café on rue Lepic serves crêpes', title: 'Café notes' }, NOW),
  createMemory({ content: 'deploy checklist: migrations first, then the workers' }, NOW),
  createMemory({ content: 'An archived thought about deployment windows', title: 'Old' }, NOW),
  createMemory({ content: 'Nothing to see; punctuation only!! ??' }, NOW),
];
const SEARCHES = [['deploy'], ['DEPLOY', 'billing'], ['cafe'], ['crepe'], ['café', 'lepic'], [MEMORIES[1]!.id.slice(0, 6)], ['!!'], ['nothing', 'absent']];

describe('the list search and the maintenance history on PostgreSQL, as on SQLite', () => {
  let server: PgServer | null = null;
  let sqlite: MemoryStore;
  let pg: PgStore;

  beforeAll(() => {
    if (unavailable) return;
    server = startPg();
    const clock = fixedClock(NOW);
    sqlite = MemoryStore.open(join(tempDir('mnemo-pg-search-'), 'search.sqlite'), { create: true, clock });
    pg = PgStore.open(`${server.url}${server.url.includes('?') ? '&' : '?'}schema=list_search`, { create: true, clock });
    for (const store of [sqlite, pg] as StoreWriter[]) {
      for (const m of MEMORIES) store.add(m, null);
      store.setArchived(MEMORIES[3]!.id, true);
    }
  });

  afterAll(() => {
    sqlite?.close();
    pg?.close();
    server?.stop();
  });

  /** What the list shows for each search: the index's ids, then the list's rows among them. */
  function listed(store: StoreWriter, search: TextSearchIndex): { matched: string[]; ids: string[] }[] {
    return SEARCHES.map((words) => {
      const matched = search.match(words);
      return { matched, ids: store.queries.listIds({ ids: matched.length ? matched : ['\u0000none'], archived: 'all' }, 100).ids };
    });
  }

  it('the same words match the same memories, and go on doing so after an edit and a delete', (ctx) => {
    if (unavailable) return ctx.skip(unavailable);
    const searches = [sqlite, pg].map((store) => {
      const search = newTextSearch(store, null);
      search.load(store);
      return search;
    });
    const [a, b] = [listed(sqlite, searches[0]!), listed(pg, searches[1]!)];
    expect(b).toEqual(a);
    // What the comparison is for: prefixes, folded diacritics, the archived memory, an id prefix.
    expect(a[0]!.matched).toHaveLength(3);
    expect(a[2]!.matched).toEqual([MEMORIES[1]!.id]);
    expect(a[3]!.matched).toEqual([MEMORIES[1]!.id]);
    expect(a[5]!.matched).toContain(MEMORIES[1]!.id);
    expect(a[6]!.matched).toEqual([]);

    [sqlite, pg].forEach((store, i) => {
      store.save({ ...store.get(MEMORIES[0]!.id)!, title: 'Invoicing', content: 'Rolled back the invoicing release' });
      searches[i]!.update(store, MEMORIES[0]!.id);
      store.delete(MEMORIES[2]!.id);
      searches[i]!.remove(MEMORIES[2]!.id);
    });
    const [c, d] = [listed(sqlite, searches[0]!), listed(pg, searches[1]!)];
    expect(d).toEqual(c);
    expect(c[0]!.matched).toEqual([MEMORIES[3]!.id]);
    expect(c[1]!.matched).toEqual([]);
    for (const s of searches) s.dispose();
  });

  it('the maintenance history: the same entries, each pass matched to its change, undone or not', (ctx) => {
    if (unavailable) return ctx.skip(unavailable);
    const changes = ([sqlite, pg] as StoreWriter[]).map((store) => {
      logMaintenance(store, 'consolidate', { merged: 2, note: 'ünïcode' });
      const { changeId } = store.change('reflect: apply plan', 'reflect.apply', () => store.add(createMemory({ content: 'insight' }, NOW), null), { plan_id: 'plan-1' });
      logMaintenance(store, 'reflect', { plan_id: 'plan-1', applied: 1 });
      logMaintenance(store, 'reflect', { plan_id: 'plan-unknown' });
      return changeId!;
    });
    const history = maintenanceHistory(sqlite);
    expect(maintenanceHistory(pg)).toEqual(history);
    expect(history.map((e) => [e.kind, e.state, e.change_id])).toEqual([
      ['reflect', 'applied', null],
      ['reflect', 'applied', changes[0]],
      ['consolidate', 'applied', null],
    ]);
    expect(maintenanceHistory(pg, 1)).toEqual(maintenanceHistory(sqlite, 1));

    sqlite.journal.undo(changes[0]!);
    pg.journal.undo(changes[1]!);
    expect(maintenanceHistory(pg)).toEqual(maintenanceHistory(sqlite));
    expect(maintenanceHistory(pg)[1]).toMatchObject({ state: 'undone', change_id: changes[1] });
  });
});
