import { connectionOf } from '../../core/store/sqlite/connection.js';
import Database from 'better-sqlite3';
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { fixedClock } from '../../core/clock.js';
import { MnemoError } from '../../core/errors.js';
import { createMemory } from '../../core/model/memory.js';
import { MemoryStore } from '../../core/store/sqlite/sqlite-store.js';
import { MNEMO_SCHEMA_VERSION } from '../../core/store/sqlite/migrations.js';
import { HashingEmbedder } from '../../core/embed/hashing.js';
import { embeddingText } from '../../core/model/memory.js';
import { expected, fixtureCopy, FIXTURE_STORE, tempDir } from '../../support/fixture.js';
import { checkNooaLayout } from '../helpers/nooa-layout.js';
import { allMemories, countMemories, noMemories, requireMemoryId } from '../../core/store/queries/memory-lookups.js';
import { defaultProfile } from '../../core/store/queries/saved-profiles.js';
import { renameOwner } from '../../core/store/queries/owner-rename.js';

const NOW = expected().now as number;
const open: MemoryStore[] = [];
const track = (s: MemoryStore) => (open.push(s), s);
afterEach(() => {
  while (open.length) open.pop()!.close();
});

describe('reading a nooa v0.0.9 store', () => {
  it('lists every memory with fields equal to its JSON data and edges equal to memory_edges', () => {
    const path = fixtureCopy();
    const store = track(MemoryStore.open(path, { readonly: true }));
    const raw = new Database(path, { readonly: true });
    const rows = raw.prepare('SELECT id, archived, owner, status, data FROM memories ORDER BY rowid').all() as {
      id: string;
      archived: number;
      owner: string;
      status: string | null;
      data: string;
    }[];
    const memories = allMemories(store, { includeArchived: true });
    expect(memories.map((m) => m.id)).toEqual(rows.map((r) => r.id));
    expect(memories).toHaveLength(expected().summary.memories);
    for (const [i, m] of memories.entries()) {
      const data = JSON.parse(rows[i]!.data) as Record<string, unknown>;
      const { edges, extra, ...fields } = m;
      expect(extra).toBeUndefined();
      expect({ ...fields }).toEqual({ ...data, archived: rows[i]!.archived === 1, owner: rows[i]!.owner, status: rows[i]!.status });
      const edgeRows = raw.prepare('SELECT dst, type, weight, created_at FROM memory_edges WHERE src = ? ORDER BY rowid').all(m.id) as {
        dst: string;
        type: string;
        weight: number;
        created_at: number;
      }[];
      expect(edges.map((e) => [e.target_id, e.type, e.weight, e.created_at])).toEqual(edgeRows.map((e) => [e.dst, e.type, e.weight, e.created_at]));
    }
    expect(memories.reduce((n, m) => n + m.edges.length, 0)).toBe(expected().summary.edges);
    raw.close();
  });

  it('keeps rotated rings at 64 entries while counters go beyond', () => {
    const store = track(MemoryStore.open(fixtureCopy(), { readonly: true }));
    for (const id of expected().summary.rotated_rings as string[]) {
      const m = store.get(id)!;
      expect(m.access_log).toHaveLength(64);
      expect(m.recalled_count + m.searched_count + m.injected_count + m.reinforced_count + m.deref_count).toBeGreaterThan(64);
    }
  });

  it('never writes to the file on read (no mnemo tables, same bytes)', () => {
    const path = fixtureCopy();
    const before = readFileSync(path);
    const store = MemoryStore.open(path);
    allMemories(store, { includeArchived: true });
    expect(store.hasMnemo()).toBe(false);
    expect(defaultProfile(store)).toBe('nooa-0.0.9');
    store.close();
    expect(readFileSync(path).equals(before)).toBe(true);
  });

  it('re-encodes every fixture row byte for byte', async () => {
    const { encodeData } = await import('../../core/store/port/codec.js');
    const store = track(MemoryStore.open(FIXTURE_STORE, { readonly: true }));
    const raw = connectionOf(store).prepare('SELECT id, data FROM memories').all() as { id: string; data: string }[];
    for (const r of raw) expect(encodeData(store.get(r.id)!)).toBe(r.data);
  });
});

describe('writing keeps the nooa layout', () => {
  it('passes the strict layout check after add, update, link and archive', () => {
    const path = fixtureCopy();
    expect(checkNooaLayout(path)).toEqual([]);
    const store = track(MemoryStore.open(path, { clock: fixedClock(NOW) }));
    const emb = new HashingEmbedder(256);
    const m = createMemory({ content: 'Rotate the ledger keys every quarter.', type: 'todo', tags: ['security'], owner: 'Planner@a1', importance: 8 }, NOW);
    store.add(m, emb.embedSync(embeddingText(m)));
    const first = allMemories(store)[0]!;
    first.content = `${first.content} (edited)`;
    first.importance = 7.5;
    store.save(first);
    store.addEdge(m.id, first.id, 'supports', 0.7);
    store.setArchived(first.id, true);
    store.logAccesses([{ id: m.id, record: { ts: NOW + 5, channel: 'recalled', reader_owner: 'Coder@c3', session_ref: 's', trace_ref: null, query: 'q', score: 1.5, rank: 0, components: { source: 'dense', cos: 0.5, rel: 1, rec: 0.2, imp: 0.3, spread: 0 } } }]);
    store.close();
    open.pop();
    expect(checkNooaLayout(path)).toEqual([]);
    const again = track(MemoryStore.open(path));
    expect(again.get(m.id)!.edges).toHaveLength(1);
    expect(again.get(first.id)!.archived).toBe(true);
    expect(defaultProfile(again)).toBe('nooa-0.0.9'); // a nooa store keeps scoring like nooa once we write to it
  });

  it('creates new stores with the mnemo profile and nooa tables', () => {
    const path = join(tempDir(), 'new.sqlite');
    const store = track(MemoryStore.open(path, { create: true }));
    expect(defaultProfile(store)).toBe('mnemo');
    expect(store.getMeta('schema_version')).toBe(String(MNEMO_SCHEMA_VERSION)); // one per migration in MNEMO_MIGRATIONS
    expect(checkNooaLayout(path)).toEqual([]);
  });
});

describe('bad input is refused clearly and writes nothing', () => {
  const code = (fn: () => unknown): string => {
    try {
      fn();
    } catch (err) {
      expect(err).toBeInstanceOf(MnemoError);
      return `${(err as MnemoError).code}: ${(err as MnemoError).message}`;
    }
    throw new Error('expected an error');
  };

  it('a file that is not SQLite', () => {
    const path = join(tempDir(), 'notes.sqlite');
    writeFileSync(path, 'just some text, not a database at all');
    expect(code(() => MemoryStore.open(path))).toMatch(/^bad_input: .*not a SQLite database/);
    expect(readFileSync(path, 'utf8')).toBe('just some text, not a database at all');
  });

  it('a missing file without create', () => {
    expect(code(() => MemoryStore.open(join(tempDir(), 'nope.sqlite')))).toMatch(/^not_found: no store at .*mnemo init/);
  });

  it('a store with user_version 3', () => {
    const path = fixtureCopy();
    const raw = new Database(path);
    raw.pragma('user_version = 3');
    raw.close();
    const before = readFileSync(path);
    expect(code(() => MemoryStore.open(path))).toMatch(/^schema: .*schema v3.*up to v2/);
    expect(readFileSync(path).equals(before)).toBe(true);
  });

  it('a newer mnemo schema', () => {
    const path = join(tempDir(), 'future.sqlite');
    MemoryStore.open(path, { create: true }).close();
    const raw = new Database(path);
    raw.prepare("UPDATE mnemo_meta SET value = '99' WHERE key = 'schema_version'").run();
    raw.close();
    expect(code(() => MemoryStore.open(path))).toMatch(/^schema: .*mnemo schema v99/);
  });

  it('a row with malformed JSON data is rebuilt from the promoted columns with a warning', () => {
    const path = fixtureCopy();
    const raw = new Database(path);
    const victim = (raw.prepare('SELECT id, content, importance FROM memories WHERE archived = 0 LIMIT 1 OFFSET 3').get() as { id: string; content: string; importance: number });
    raw.prepare("UPDATE memories SET data = '{not json' WHERE id = ?").run(victim.id);
    raw.close();
    const warnings: string[] = [];
    const store = track(MemoryStore.open(path, { readonly: true, onWarning: (w) => warnings.push(w) }));
    const all = allMemories(store, { includeArchived: true });
    expect(all).toHaveLength(160);
    const m = store.get(victim.id)!;
    expect(m.content).toBe(victim.content);
    expect(m.importance).toBe(victim.importance);
    expect(warnings.some((w) => w.includes(victim.id) && /malformed/.test(w))).toBe(true);
  });

  it('an unknown edge type', () => {
    const store = track(MemoryStore.open(fixtureCopy()));
    const [a, b] = allMemories(store);
    const before = store.neighbors(a!.id).length;
    expect(code(() => store.addEdge(a!.id, b!.id, 'befriends'))).toMatch(/^bad_input: unknown edge type "befriends"/);
    expect(store.neighbors(a!.id)).toHaveLength(before);
    expect(store.hasMnemo()).toBe(false);
  });

  it('ambiguous, short and wildcard id prefixes', () => {
    const store = track(MemoryStore.open(join(tempDir(), 'p.sqlite'), { create: true, clock: fixedClock(NOW) }));
    store.add(createMemory({ id: 'abcdef0000000001', content: 'one' }, NOW), null);
    store.add(createMemory({ id: 'abcdef0000000002', content: 'two' }, NOW), null);
    expect(store.resolveId('abcdef0000000001')).toBe('abcdef0000000001');
    expect(store.resolveId('abcdef0000000002'.slice(0, 15) + '2')).toBe('abcdef0000000002');
    expect(store.resolveId('abcdef1')).toBeNull();
    expect(code(() => store.resolveId('abcdef'))).toMatch(/^bad_input: id prefix "abcdef" is ambiguous/);
    expect(store.resolveId('abcde')).toBeNull();
    expect(store.resolveId('%%%%%%')).toBeNull();
    expect(store.resolveId('______')).toBeNull();
    expect(store.resolveId('abcdef_____________')).toBeNull();
    expect(code(() => requireMemoryId(store, '%%%%%%'))).toMatch(/^not_found: .*literally/);
  });

  it('renameOwner never claims unowned rows and validates owners', () => {
    const store = track(MemoryStore.open(fixtureCopy(), { clock: fixedClock(NOW) }));
    expect(code(() => renameOwner(store, '', 'Planner@a1'))).toMatch(/never claims unowned/);
    expect(code(() => renameOwner(store, 'Coder@c3', 'Co%der'))).toMatch(/bad_input/);
    expect(renameOwner(store, 'Coder@c3', 'Coder@c9')).toBe(41);
    expect(renameOwner(store, 'Coder@c3', 'Coder@c9')).toBe(0);
    expect(countMemories(store, { includeArchived: true, owner: 'Coder@c9' })).toBe(41 + expected().summary.by_owner[''] as number);
  });

  it('isEmpty agrees with count() === 0 for live rows, archived rows and an owner scope', () => {
    const store = track(MemoryStore.open(join(tempDir(), 'empty.sqlite'), { create: true, clock: fixedClock(NOW) }));
    expect(noMemories(store)).toBe(true);
    const m = createMemory({ content: 'The only memory.', owner: 'Planner@a1' }, NOW);
    store.add(m, new HashingEmbedder(256).embedSync(embeddingText(m)));
    expect([noMemories(store), noMemories(store, { owner: 'Coder' }), noMemories(store, { owner: 'Planner' })]).toEqual([false, true, false]);
    store.setArchived(m.id, true);
    expect([noMemories(store), noMemories(store, { includeArchived: true })]).toEqual([true, false]);
  });
});

describe('migration of older nooa files', () => {
  it('adds owner and status to a v1 file and stamps v2, idempotently', () => {
    const path = join(tempDir(), 'v1.sqlite');
    const raw = new Database(path);
    raw.exec(`CREATE TABLE memories (id TEXT PRIMARY KEY, type TEXT NOT NULL, content TEXT NOT NULL, importance REAL NOT NULL DEFAULT 5.0,
      salience REAL NOT NULL DEFAULT 0.0, strength INTEGER NOT NULL DEFAULT 1, created_at REAL NOT NULL, last_accessed REAL NOT NULL,
      access_count INTEGER NOT NULL DEFAULT 0, archived INTEGER NOT NULL DEFAULT 0, embedding BLOB, data TEXT NOT NULL)`);
    raw.prepare('INSERT INTO memories(id, type, content, created_at, last_accessed, data) VALUES (?, ?, ?, ?, ?, ?)').run(
      'legacy000001',
      'info',
      'legacy row',
      100,
      100,
      JSON.stringify({ id: 'legacy000001', type: 'info', content: 'legacy row', created_at: 100, access_log: [100.0] }),
    );
    raw.close();
    const store = MemoryStore.open(path);
    const m = store.get('legacy000001')!;
    expect(m.owner).toBe('');
    expect(m.status).toBeNull();
    expect(m.access_log).toEqual([{ ts: 100, channel: 'created', reader_owner: '', session_ref: null, trace_ref: null, query: null, score: null, rank: null, components: null }]);
    store.close();
    MemoryStore.open(path).close();
    const check = new Database(path, { readonly: true });
    expect(check.pragma('user_version', { simple: true })).toBe(2);
    check.close();
  });
});

describe('copying the fixture', () => {
  it('works on copies only', () => {
    const dir = tempDir();
    copyFileSync(FIXTURE_STORE, join(dir, 'x.sqlite'));
    expect(readFileSync(join(dir, 'x.sqlite')).length).toBeGreaterThan(0);
  });
});
