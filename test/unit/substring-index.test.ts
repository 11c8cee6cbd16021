/**
 * The keyword leg's substring index must be exact: the same ids in the same order as SQLite's
 * `lower(content) LIKE '%tok%'` in rowid order, on random text and after every kind of change
 * (add, content update, archive, restore, delete, replace), including changes made by another
 * connection.
 */
import { connectionOf } from '../../core/store/sqlite/connection.js';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import type { Engine } from '../../core/engine/engine.js';
import { createMemory, embeddingText } from '../../core/model/memory.js';
import { recallCorpus } from '../../core/recall/pipeline.js';
import { sparseLeg } from '../../core/recall/sparse.js';
import { SubstringIndex, SubstringIndexBuild } from '../../core/recall/substring-index.js';
import { substringBuildSlice, substringIndexPolicy } from '../../core/recall/keyword-view.js';
import { asciiLower } from '../../core/recall/tokens.js';
import { newEngine, put } from '../helpers/recall-store.js';

/** Deterministic pseudo-random text with upper case, digits, punctuation and non-ASCII letters. */
function rng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}
const ALPHABET = 'abcdeEFGxyz019 .-_%İıKßé\n';
function randomText(r: () => number, len: number): string {
  let out = '';
  for (let i = 0; i < len; i++) out += ALPHABET[Math.floor(r() * ALPHABET.length)];
  return out;
}
function randomToken(r: () => number): string {
  const chars = 'abcdexyz019';
  const len = 1 + Math.floor(r() * 5);
  let t = '';
  for (let i = 0; i < len; i++) t += chars[Math.floor(r() * chars.length)];
  return t;
}

describe('SubstringIndex', () => {
  it('matches a brute-force scan for 1- to 5-character tokens', () => {
    const r = rng(42);
    const texts = Array.from({ length: 700 }, () => asciiLower(randomText(r, Math.floor(r() * 60))));
    const index = new SubstringIndex(texts);
    for (let i = 0; i < 400; i++) {
      const tok = randomToken(r);
      const got: number[] = [];
      index.match(tok, (s) => got.push(s));
      const want = texts.flatMap((t, s) => (t.includes(tok) ? [s] : []));
      expect(got, tok).toEqual(want);
    }
  });

  it('built a slice at a time, answers as when built at once', () => {
    const r = rng(43);
    const texts = Array.from({ length: 3000 }, () => asciiLower(randomText(r, Math.floor(r() * 60))));
    const whole = new SubstringIndex(texts);
    const build = new SubstringIndexBuild(texts.length, (s) => texts[s]!);
    let slices = 1;
    // A deadline already past: each slice does the least it can.
    while (!build.step(0)) slices++;
    expect(slices).toBeGreaterThan(10);
    const sliced = build.result();
    for (let i = 0; i < 300; i++) {
      const tok = randomToken(r);
      const a: number[] = [];
      const b: number[] = [];
      whole.match(tok, (s) => a.push(s));
      sliced.match(tok, (s) => b.push(s));
      expect(b, tok).toEqual(a);
    }
  });

  it('folds ASCII only, like SQLite lower(): İ, ı and K (Kelvin) never match i or k', () => {
    const index = new SubstringIndex(['\u0130stanbul', '\u0131i', '\u212Aelvn'].map(asciiLower));
    const hits = (t: string) => {
      const out: number[] = [];
      index.match(t, (s) => out.push(s));
      return out;
    };
    expect(hits('i')).toEqual([1]);
    expect(hits('k')).toEqual([]);
    expect(hits('stanbul')).toEqual([0]);
    expect(hits('elvn')).toEqual([2]);
  });

  it('finds a token inside any word that holds it, and never across a character that ends a word', () => {
    const texts = ['rolled-back', 'rollback rollback', 'xrollbackx', 'roll back', 'roll\u00e9back', 'back', 'ollba', ''];
    const index = new SubstringIndex(texts);
    const hits = (t: string) => {
      const out: number[] = [];
      index.match(t, (s) => out.push(s));
      return out;
    };
    // 'rollback' is a word of slot 1 (twice: listed once) and part of slot 2's one word.
    expect(hits('rollback')).toEqual([1, 2]);
    expect(hits('lback')).toEqual([1, 2]);
    expect(hits('llb')).toEqual([1, 2, 6]);
    expect(hits('back')).toEqual([0, 1, 2, 3, 4, 5]);
    // Across '-', ' ' and a non-ASCII letter: no word holds it.
    expect(hits('rolledback')).toEqual([]);
    expect(hits('rollbac')).toEqual([1, 2]);
    expect(hits('dback')).toEqual([]);
    expect(hits('lledb')).toEqual([]);
    // A token longer than every word.
    expect(hits('rollbackrollback')).toEqual([]);
  });
});

let engine: Engine;
const slice = { ...substringBuildSlice };
const policy = { ...substringIndexPolicy };
afterEach(() => {
  engine?.close();
  Object.assign(substringBuildSlice, slice);
  Object.assign(substringIndexPolicy, policy);
});

/** The oracle: nooa's SQL, token by token, scores counted, stable sort by count. */
function sqlKeyword(db: Database.Database, tokens: string[], n: number): string[] {
  const scores = new Map<string, number>();
  for (const t of tokens) {
    for (const row of db.prepare("SELECT id FROM memories WHERE archived = 0 AND lower(content) LIKE ? ORDER BY rowid").all(`%${t}%`) as { id: string }[]) {
      scores.set(row.id, (scores.get(row.id) ?? 0) + 1);
    }
  }
  return [...scores].sort((a, b) => b[1] - a[1]).slice(0, n).map(([id]) => id);
}

describe('when the substring index is first built', () => {
  const lookUp = (tokens: string[]) => sparseLeg(recallCorpus(engine), tokens, ['content'], null, 50).map((h) => h.id);
  it('after a few scans by default, and at the first lookup in a process that serves (scansBefore 0), with the same hits', () => {
    engine = newEngine();
    const r = rng(5);
    for (let i = 0; i < 200; i++) put(engine, { content: randomText(r, 20) });
    const tokens = [randomToken(r), randomToken(r)];
    const scanned = lookUp(tokens);
    expect(recallCorpus(engine).substringIndexState(['content'])).toBe('none');
    engine.close();
    substringIndexPolicy.scansBefore = 0;
    engine = newEngine();
    const r2 = rng(5);
    for (let i = 0; i < 200; i++) put(engine, { content: randomText(r2, 20) });
    const indexed = lookUp(tokens);
    expect(recallCorpus(engine).substringIndexState(['content'])).toBe('built');
    expect(indexed.length).toBe(scanned.length);
    expect(indexed).toEqual(sqlKeyword(connectionOf(engine.store), tokens, 50));
  });
});

describe('the recall corpus stays exact as the store changes', () => {
  it('answers the same over content, title and tags by scanning (first tokens after an open) as through the index built later', () => {
    engine = newEngine();
    const r = rng(11);
    const lower = (s: string) => s.replace(/[A-Z]/g, (c) => c.toLowerCase());
    const texts = new Map<string, string>();
    for (let i = 0; i < 300; i++) {
      const m = put(engine, { content: randomText(r, 10 + Math.floor(r() * 40)), title: randomText(r, 6), tags: [randomToken(r), randomToken(r)] });
      texts.set(m.id, lower([m.title, m.content, m.tags.join('\n')].join('\n')));
    }
    const corpus = recallCorpus(engine);
    const order = corpus.allIds().filter((_, s) => corpus.isAlive(s));
    // Far more tokens than are scanned before the index is built: both paths answer some.
    for (let i = 0; i < 80; i++) {
      const token = randomToken(r);
      const got = sparseLeg(corpus, [token], ['content', 'title', 'tags'], null, 500).map((h) => h.id);
      expect(got, token).toEqual(order.filter((id) => texts.get(id)!.includes(token)));
    }
  });

  it('after adds, updates, archives, restores, deletes, replaces and a foreign commit', () => {
    engine = newEngine();
    const r = rng(7);
    const ids: string[] = [];
    for (let i = 0; i < 300; i++) ids.push(put(engine, { content: randomText(r, 10 + Math.floor(r() * 50)) }).id);
    const check = () => {
      const corpus = recallCorpus(engine);
      for (let i = 0; i < 60; i++) {
        const tokens = [...new Set([randomToken(r), randomToken(r), randomToken(r)])];
        const got = sparseLeg(corpus, tokens, ['content'], null, 50).map((h) => h.id);
        expect(got, tokens.join(' ')).toEqual(sqlKeyword(connectionOf(engine.store), tokens, 50));
      }
    };
    check();
    const store = engine.store;
    // Enough edits to exercise both the dirty-slot scan and the rebuild threshold.
    for (let round = 0; round < 3; round++) {
      for (let i = 0; i < 40; i++) {
        const id = ids[Math.floor(r() * ids.length)]!;
        const m = store.get(id);
        if (!m) continue;
        const op = Math.floor(r() * 5);
        if (op === 0) {
          m.content = randomText(r, 30);
          store.save(m);
        } else if (op === 1) store.setArchived(id, true);
        else if (op === 2) store.setArchived(id, false);
        else if (op === 3) store.delete(id);
        else store.add({ ...m, content: randomText(r, 25) }, engine.embedder.embedSync!(embeddingText(m))); // INSERT OR REPLACE: new rowid
      }
      for (let i = 0; i < 10; i++) ids.push(put(engine, { content: randomText(r, 40) }).id);
      check();
    }
    // Another connection commits: data_version moves and the corpus reloads.
    const other = new Database(store.path);
    const m = createMemory({ content: 'xyzzy plugh from another process' }, engine.now());
    other
      .prepare('INSERT INTO memories(id, type, content, importance, salience, strength, created_at, last_accessed, access_count, archived, owner, status, embedding, data) VALUES (?, ?, ?, 5, 0, 1, ?, ?, 0, 0, ?, NULL, NULL, ?)')
      .run(m.id, m.type, m.content, m.created_at, m.created_at, '', JSON.stringify(m));
    other.close();
    const hits = sparseLeg(recallCorpus(engine), ['xyzzy'], ['content'], null, 50).map((h) => h.id);
    expect(hits).toEqual([m.id]);
    check();
  });

  it('while its index is rebuilt a slice at a time, through the changes made meanwhile, and after', () => {
    // The shortest slices: a rebuild takes many lookups, and the store changes between them.
    Object.assign(substringBuildSlice, { ms: 0 });
    engine = newEngine();
    const r = rng(9);
    const ids: string[] = [];
    for (let i = 0; i < 1500; i++) ids.push(put(engine, { content: randomText(r, 10 + Math.floor(r() * 50)) }).id);
    const store = engine.store;
    // Live when the corpus is read, archived before the first index is built, brought back with
    // the same text afterwards: no text changed, so nothing marks its slot dirty, and the index
    // must hold it anyway.
    const hidden = put(engine, { content: 'qqzx hidden while indexed' }).id;
    const states: string[] = [];
    let state = 'none';
    // A token of the text last written: the memory just changed must be found by its new text.
    let written = '';
    const check = () => {
      const corpus = recallCorpus(engine);
      const tokens = [...new Set([randomToken(r), randomToken(r), ...(written ? [written] : [])])];
      const got = sparseLeg(corpus, tokens, ['content'], null, 50).map((h) => h.id);
      expect(got, tokens.join(' ')).toEqual(sqlKeyword(connectionOf(engine.store), tokens, 50));
      state = corpus.substringIndexState(['content']);
      if (states.at(-1) !== state) states.push(state);
    };
    for (let i = 0; i < 900; i++) {
      check();
      written = '';
      // While a rebuild runs, the slots it has already read are the ones changed (the first ids);
      // before, enough changes everywhere to pass the rebuild mark (about 1 % of the slots, at least 512).
      const id = state === 'rebuilding' ? ids[i % 100]! : ids[Math.floor(r() * ids.length)]!;
      const m = store.get(id);
      if (m && i % 4 !== 1) {
        written = `${randomToken(r)}qv${randomToken(r)}`;
        m.content = `${randomText(r, 20)} ${written}`;
        store.save(m);
      } else ids.push(put(engine, { content: randomText(r, 40) }).id);
      if (i === 1) store.setArchived(hidden, true);
      if (i === 600) store.setArchived(hidden, false);
    }
    // Scanned, built at once, then rebuilt beside the old index at least once, and built again.
    expect(states.slice(0, 4)).toEqual(['none', 'built', 'rebuilding', 'built']);
    const hits = sparseLeg(recallCorpus(engine), ['qqzx'], ['content'], null, 50).map((h) => h.id);
    expect(hits).toEqual([hidden]);
  });
});
