/**
 * The journal's checks and a long run's marker against writers on other connections (issue #17).
 * SQLite has one writer at a time, so a check and the write it guards cannot be separated there;
 * PostgreSQL's READ COMMITTED transactions can be, so the adapter takes row locks instead.
 *
 * Each test puts a second connection to work between the check and the write of the first, by
 * wrapping one of the first connection's journal statements. The connections share this process's
 * one thread, so a second connection that would wait for a lock the first holds would wait forever:
 * it connects with a short lock_timeout, and a wait shows up as its typed `busy` error.
 *
 * What could go wrong: an undo writing back over a row another connection changed after the
 * undo's check; one change undone twice, by two connections at once; two undos given the same
 * undo order (a redo then picks the wrong one); two long runs each believing it holds the marker;
 * a change committing between another's capture of a row that is not a memory (a saved profile,
 * which may not exist yet) and its write, so that undoing the other erases it.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixedClock } from '../../core/clock.js';
import { MnemoError } from '../../core/errors.js';
import { createMemory, type Memory } from '../../core/model/memory.js';
import { PgStore } from '../../core/store/pg/pg-store.js';
import type { SavedProfileRow } from '../../core/store/port/port.js';
import { SyncPg } from '../../core/store/pg/sync-pg.js';
import { pgUnavailable, startPg, type PgServer } from '../../support/pg-cluster.js';
import { errorOf } from '../helpers/mnemo-error.js';
import { putSavedProfile, savedProfile } from '../../core/store/queries/saved-profiles.js';

const NOW = 1_780_000_000;
const SCHEMAS = ['pgrace_rows', 'pgrace_twice', 'pgrace_order', 'pgrace_marker', 'pgrace_process', 'pgrace_capture', 'pgrace_keyundo'];
const unavailable = pgUnavailable();

/** Runs `act` once, the first time `obj[name]` is called, right after (or before) the call itself. */
function interleave<T extends object, K extends keyof T>(obj: T, name: K, when: 'before' | 'after', act: () => void): void {
  const original = obj[name] as unknown as (...args: unknown[]) => unknown;
  let done = false;
  (obj as Record<K, unknown>)[name] = (...args: unknown[]) => {
    if (!done && when === 'before') {
      done = true;
      act();
    }
    const result = original.apply(obj, args);
    if (!done && when === 'after') {
      done = true;
      act();
    }
    return result;
  };
}

describe('the PostgreSQL journal under concurrent writers', () => {
  let server: PgServer | null = null;
  const url = (schema: string, extra = '') => `${server!.url}${server!.url.includes('?') ? '&' : '?'}schema=${schema}${extra}`;
  const open = (schema: string) => PgStore.open(url(schema), { create: true, clock: fixedClock(NOW) });
  /** The second connection: a lock it would wait for fails it after 300 ms instead. */
  const openOther = (schema: string) => PgStore.open(url(schema, '&options=-c%20lock_timeout%3D300'), { clock: fixedClock(NOW) });
  const stores: PgStore[] = [];
  const both = (schema: string): [PgStore, PgStore] => {
    const a = open(schema);
    const b = openOther(schema);
    stores.push(a, b);
    return [a, b];
  };
  const added = (store: PgStore, content: string): Memory => {
    const m = createMemory({ content }, NOW);
    store.change(`add ${content}`, 'test', () => store.add(m, null));
    return m;
  };
  const profile = (name: string, config: string): SavedProfileRow => ({ name, base: 'mnemo', config, created_at: NOW, updated_at: NOW, default_since: null });
  const saveProfile = (store: PgStore, name: string, config: string) => store.change(`save ${config}`, 'test', () => putSavedProfile(store, profile(name, config))).changeId!;
  const configOf = (store: PgStore, name: string) => savedProfile(store, name)?.config ?? null;
  const edit = (store: PgStore, id: string, content: string) => store.change(`edit ${content}`, 'test', () => store.save({ ...store.get(id)!, content })).changeId!;

  beforeAll(() => {
    if (unavailable) return;
    server = startPg();
    const admin = SyncPg.connect(server.url);
    for (const schema of SCHEMAS) admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    admin.close();
  }, 120_000);

  afterAll(() => {
    for (const s of stores) s.close();
    server?.stop();
  });

  it('an undo keeps a row it is restoring from another writer until it commits', (ctx) => {
    if (unavailable) return ctx.skip(unavailable);
    const [a, b] = both('pgrace_rows');
    const m = added(a, 'original');
    const change = edit(a, m.id, 'edited');
    let theirs = null as MnemoError | null;
    // Between the undo's check and its restore, the other connection edits the row.
    interleave(a.journal.sql, 'rows', 'before', () => {
      theirs = errorOf(() => edit(b, m.id, 'theirs'));
    });
    a.journal.undo(change);
    // The writer waited (and gave up): it was not overwritten silently.
    expect(theirs).not.toBeNull();
    expect(theirs!.code).toBe('busy');
    expect(a.get(m.id)!.content).toBe('original');
    // Once the undo committed, the same write goes through, on top of the undone row.
    edit(b, m.id, 'theirs');
    expect(a.get(m.id)!.content).toBe('theirs');
    expect(errorOf(() => a.journal.redo(change))?.code).toBe('conflict');
  });

  it('of two connections undoing (or redoing) one change, one does it and the other is refused', (ctx) => {
    if (unavailable) return ctx.skip(unavailable);
    const [a, b] = both('pgrace_twice');
    const m = added(a, 'original');
    const change = edit(a, m.id, 'edited');
    let theirs = null as MnemoError | null;
    interleave(a.journal.sql, 'rows', 'before', () => {
      theirs = errorOf(() => b.journal.undo(change));
    });
    a.journal.undo(change);
    expect(theirs?.code).toBe('busy');
    // Asked again once the first undo committed: already undone, nothing written twice.
    expect(errorOf(() => b.journal.undo(change))?.code).toBe('conflict');
    expect(a.journal.get(change)).toMatchObject({ state: 'undone' });

    theirs = null as MnemoError | null;
    interleave(a.journal.sql, 'rows', 'before', () => {
      theirs = errorOf(() => b.journal.redo(change));
    });
    a.journal.redo(change);
    expect(theirs?.code).toBe('busy');
    expect(errorOf(() => b.journal.redo(change))?.code).toBe('conflict');
    expect(a.get(m.id)!.content).toBe('edited');
  });

  it('an undo in another process waits for the one in progress, then is refused as already undone', async (ctx) => {
    if (unavailable) return ctx.skip(unavailable);
    const a = open('pgrace_process');
    stores.push(a);
    const m = added(a, 'original');
    const change = edit(a, m.id, 'edited');
    const admin = SyncPg.connect(server!.url);
    let out = '';
    let ended: Promise<void> = Promise.resolve();
    interleave(a.journal.sql, 'rows', 'before', () => {
      // No lock timeout there: the other process's undo waits for this one's locks for as long as it holds them.
      const child = spawn(process.execPath, ['--import', 'tsx', join(process.cwd(), 'test', 'helpers', 'pg-undo-child.ts'), url('pgrace_process'), 'undo', String(change), String(NOW)], {
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      child.stdout.on('data', (d: Buffer) => (out += d.toString()));
      ended = new Promise((resolve) => child.on('exit', () => resolve()));
      // Hold the undo open until the server shows the other process waiting for a lock (at most a minute).
      const pause = new Int32Array(new SharedArrayBuffer(4));
      for (let i = 0; i < 3000; i++) {
        const [w] = admin.query<{ n: string }>("SELECT count(*) AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE '%FOR UPDATE%'");
        if (Number(w!.n) > 0) return;
        Atomics.wait(pause, 0, 0, 20);
      }
      throw new Error('the other process never waited for a lock');
    });
    try {
      a.journal.undo(change);
      await ended;
    } finally {
      admin.close();
    }
    expect(JSON.parse(out.trim())).toMatchObject({ code: 'conflict' });
    expect(a.journal.get(change)).toMatchObject({ state: 'undone' });
    expect(a.get(m.id)!.content).toBe('original');
  }, 90_000);

  it('two undos of different changes at once get distinct undo orders, the later commit last', (ctx) => {
    if (unavailable) return ctx.skip(unavailable);
    const [a, b] = both('pgrace_order');
    const one = added(a, 'one');
    const two = added(a, 'two');
    const first = edit(a, one.id, 'one, edited');
    const second = edit(a, two.id, 'two, edited');
    let theirs = null as MnemoError | null;
    // The other connection undoes its change while the first has marked its own undone, uncommitted.
    interleave(a.journal.sql, 'markUndone', 'after', () => {
      theirs = errorOf(() => b.journal.undo(second));
    });
    a.journal.undo(first);
    expect(theirs?.code).toBe('busy');
    b.journal.undo(second);
    const admin = SyncPg.connect(server!.url);
    try {
      const orders = admin.query<{ id: string; undo_order: string }>('SELECT id, undo_order FROM pgrace_order.mnemo_journal WHERE undo_order IS NOT NULL ORDER BY undo_order');
      expect(orders.map((r) => Number(r.id))).toEqual([first, second]);
      expect(new Set(orders.map((r) => r.undo_order)).size).toBe(2);
    } finally {
      admin.close();
    }
    // A redo without an id takes the most recent undo.
    expect(a.journal.redo().id).toBe(second);
  });

  it('two connections starting long runs at once: one runs, the other is refused', (ctx) => {
    if (unavailable) return ctx.skip(unavailable);
    const [a, b] = both('pgrace_marker');
    const m = added(a, 'base');
    const theirs = b.runs.changeRun('theirs', 'test');
    let started = null as MnemoError | null;
    // Both pass the check for a marker; the other connection writes its marker first.
    interleave(a.journal.sql, 'insertChange', 'after', () => {
      started = errorOf(() => theirs.batch(() => b.save({ ...b.get(m.id)!, content: 'their batch' })));
    });
    const ours = a.runs.changeRun('ours', 'test');
    const refused = errorOf(() => ours.batch(() => a.save({ ...a.get(m.id)!, content: 'our batch' })));
    expect(started).toBeNull();
    expect(refused?.code).toBe('busy');
    expect(ours.changeId).toBeNull();
    expect(JSON.parse(a.getMeta('journal_run')!)).toMatchObject({ change_id: theirs.changeId, label: 'theirs' });
    const id = theirs.finish(() => ({}))!;
    expect(a.getMeta('journal_run')).toBeNull();
    expect(a.get(m.id)!.content).toBe('their batch');
    expect(a.journal.get(id)).toMatchObject({ label: 'theirs', state: 'applied', rows: 1 });
  });

  it("a change holds a row that is not a memory from its capture to its commit: another change waits, and undoing the first cannot erase the second", (ctx) => {
    if (unavailable) return ctx.skip(unavailable);
    const [a, b] = both('pgrace_capture');
    let theirs = null as MnemoError | null;
    // The profile does not exist yet: there is no row to lock. Between our capture (before-image:
    // none) and our write, the other connection saves it.
    const ours = a.change('save ours', 'test', () => {
      a.journal.capture('profile:shared-knobs');
      theirs = errorOf(() => saveProfile(b, 'shared-knobs', '{"theirs":1}'));
      putSavedProfile(a, profile('shared-knobs', '{"ours":1}'));
    }).changeId!;
    expect(theirs?.code).toBe('busy');
    expect(configOf(a, 'shared-knobs')).toBe('{"ours":1}');
    // Once ours committed, theirs goes on top of it, and each undo takes back only its own change.
    const theirsId = saveProfile(b, 'shared-knobs', '{"theirs":1}');
    expect(errorOf(() => a.journal.undo(ours))?.code).toBe('conflict');
    a.journal.undo(theirsId);
    expect(configOf(a, 'shared-knobs')).toBe('{"ours":1}');
    a.journal.undo(ours);
    expect(configOf(a, 'shared-knobs')).toBeNull();
  });

  it('an undo holds the rows that are not memories it restores until it commits', (ctx) => {
    if (unavailable) return ctx.skip(unavailable);
    const [a, b] = both('pgrace_keyundo');
    saveProfile(a, 'tuned', '{"v":1}');
    const change = saveProfile(a, 'tuned', '{"v":2}');
    let theirs = null as MnemoError | null;
    // Between the undo's check and its restore, the other connection saves the profile again.
    interleave(a.journal.sql, 'rows', 'before', () => {
      theirs = errorOf(() => saveProfile(b, 'tuned', '{"v":3}'));
    });
    a.journal.undo(change);
    expect(theirs?.code).toBe('busy');
    expect(configOf(a, 'tuned')).toBe('{"v":1}');
    saveProfile(b, 'tuned', '{"v":3}');
    expect(configOf(a, 'tuned')).toBe('{"v":3}');
    expect(errorOf(() => a.journal.redo(change))?.code).toBe('conflict');
  });
});
