import { describe, expect, it } from 'vitest';
import { PartsReader, PartsWriter, SnapshotMismatch } from '../../core/store/derived/snapshot-parts.js';
import { asciiLowerBytes, readIndexedStrings, readStoredStrings, writeIndexedStrings } from '../../core/store/derived/stored-strings.js';
import { asciiLower } from '../../core/recall/tokens.js';

/** Strings written as a snapshot writes them, read back as StoredStrings. */
function stored(list: string[]) {
  const w = new PartsWriter();
  expect(w.strings('s', list)).toBe(true);
  return readStoredStrings(new PartsReader(w.parts), 's', list.length);
}

// Hostile-but-valid entries: empty, non-ASCII of every UTF-8 width, astral characters, case variants.
const LIST = ['', 'alpha', 'ALPHA', 'Ünïcode kestrel', '東京 rotate', '😀😀 uploads', 'İstanbul KELVIN \u212A', 'rotaterotate', 'x'.repeat(5000), 'end'];

describe('StoredStrings (a snapshot part kept as its bytes)', () => {
  it('is made once for parts read once: the indexes that hold the same ids share it, and its hash table', () => {
    const w = new PartsWriter();
    expect(w.strings('ids', LIST)).toBe(true);
    const a = readStoredStrings(new PartsReader(w.parts), 'ids', LIST.length).index();
    expect(readStoredStrings(new PartsReader(w.parts), 'ids', LIST.length)).toBe(a);
    // Equal bytes read into buffers of their own are another part: made again, and still equal.
    const copy = new Map([...w.parts].map(([k, v]) => [k, v.slice()]));
    const b = readStoredStrings(new PartsReader(copy), 'ids', LIST.length);
    expect(b).not.toBe(a);
    expect(b.toArray()).toEqual(a.toArray());
  });

  it('finds every entry through a hash table stored beside it, as through one made on reading', () => {
    const w = new PartsWriter();
    expect(writeIndexedStrings(w, 's', LIST)).toBe(true);
    expect(w.parts.has('s.table')).toBe(true);
    const s = readIndexedStrings(new PartsReader(w.parts), 's', LIST.length);
    expect(s.indexTables?.table).toEqual(new Int32Array(w.parts.get('s.table')!.slice().buffer));
    LIST.forEach((v, i) => expect(s.indexOf(v)).toBe(i));
    for (const absent of ['alph', 'Alpha', '😀', '\ud800', 'end ']) expect(s.indexOf(absent)).toBe(-1);
    // The same table as hashing the stored bytes gives (non-ASCII entries hash their UTF-8 bytes).
    expect(stored(LIST).index().indexTables!.table).toEqual(s.indexTables!.table);
  });

  it('refuses a stored table that cannot be the entries\' and hashes the entries instead of storing one for equal strings', () => {
    const w = new PartsWriter();
    expect(writeIndexedStrings(w, 's', LIST)).toBe(true);
    const table = new Int32Array(w.parts.get('s.table')!.slice().buffer);
    const hashes = w.parts.get('s.hashes')!;
    w.parts.set('s.table', new Uint8Array(table.subarray(0, 8).slice().buffer));
    expect(() => readIndexedStrings(new PartsReader(w.parts), 's')).toThrow(/snapshot part s\.(table|hashes)/);
    const dropped = table.slice();
    dropped[dropped.findIndex((v) => v !== 0)] = 0;
    w.parts.set('s.table', new Uint8Array(dropped.buffer));
    w.parts.set('s.hashes', hashes);
    expect(() => readIndexedStrings(new PartsReader(w.parts), 's')).toThrow(/holds 9 of its 10 entries/);
    const beyond = table.slice();
    beyond[beyond.findIndex((v) => v !== 0)] = 99;
    w.parts.set('s.table', new Uint8Array(beyond.buffer));
    expect(() => readIndexedStrings(new PartsReader(w.parts), 's')).toThrow(/names entry 98 of 10/);

    const twins = new PartsWriter();
    expect(writeIndexedStrings(twins, 'd', ['a', 'b', 'a'])).toBe(true);
    expect(twins.parts.has('d.table')).toBe(false);
    expect(() => readIndexedStrings(new PartsReader(twins.parts), 'd')).toThrow(/appears twice/);
  });

  it('gives back every entry, finds each by value, and no other', () => {
    const s = stored(LIST);
    expect(s.length).toBe(LIST.length);
    expect(s.toArray()).toEqual(LIST);
    LIST.forEach((v, i) => {
      expect(s.get(i)).toBe(v);
      expect(s.indexOf(v)).toBe(i);
      expect(s.isEmpty(i)).toBe(v === '');
    });
    for (const absent of ['alph', 'Alpha', 'ünïcode kestrel', '😀', 'x'.repeat(4999), '\ud800', 'end ']) expect(s.indexOf(absent)).toBe(-1);
    expect(s.range(2, 5)).toEqual(LIST.slice(2, 5));
  });

  it('finds the entries containing a word as lower(text) LIKE %word% does, never across two entries', () => {
    const s = stored(LIST);
    for (const word of ['alpha', 'rotate', 'kestrel', 'uploads', 'stanbul', 'kelvin', 'x', 'xxx', 'd', 'ee', 'aend', 'tokyo', 'a']) {
      const found: number[] = [];
      s.forEachContaining(word, (i) => found.push(i));
      const expected = LIST.flatMap((v, i) => (asciiLower(v).includes(word) ? [i] : []));
      expect(found, word).toEqual(expected);
    }
  });

  it('shares one string among equal entries (an owners part), each still its own value', () => {
    const owners = ['Coder@c3', '', 'Reviewer@r1', 'Coder@c3', 'Ünïcode@😀', '', 'Ünïcode@😀', 'coder@C3'];
    const s = stored(owners);
    owners.forEach((v, i) => expect(s.shared(i)).toBe(v));
    // One object per distinct value: a second read of an entry, or an equal entry, gives the same string.
    const objects = new Set(owners.map((_, i) => s.shared(i)));
    expect(objects.size).toBe(new Set(owners).size);
    expect(s.shared(3)).toBe(s.shared(0));
  });

  it('shares the hash table of a part holding the same entries byte for byte, and finds every entry through it', () => {
    const ids = Array.from({ length: 500 }, (_, i) => `m-${i}-${'é'.repeat(i % 3)}`);
    const first = stored(ids).index();
    const twin = stored(ids);
    const regrouped = stored(['m-0-m-1-é', ...ids.slice(2)]); // entries 0 and 1 as one: the same bytes, other entries
    expect(twin.indexOf(ids[7]!)).toBe(7);
    expect(twin.indexTables!.table).toBe(first.indexTables!.table);
    expect(regrouped.indexOf('m-0-m-1-é')).toBe(0);
    expect(regrouped.indexOf(ids[0]!)).toBe(-1);
    expect(regrouped.indexTables!.table).not.toBe(first.indexTables!.table);
    ids.forEach((id, i) => expect(twin.indexOf(id)).toBe(i));
  });

  it('refuses a part whose lengths do not fit its bytes, and one holding an entry twice', () => {
    const w = new PartsWriter();
    w.strings('s', ['abc', 'déf']);
    w.typed('s.len', new Uint32Array([3, 9]));
    expect(() => readStoredStrings(new PartsReader(w.parts), 's')).toThrow(SnapshotMismatch);
    expect(() => stored(['same', 'other', 'same']).index()).toThrow(SnapshotMismatch);
  });
});

describe('PartsReader.stringsOnDemand (a strings part read by entry range)', () => {
  it('reads only the asked entries\' bytes when every entry is ASCII, the whole run otherwise, and gives the same strings', () => {
    const ascii = ['a1', '', 'bb2', 'ccc3', 'd'];
    for (const list of [ascii, LIST]) {
      const w = new PartsWriter();
      expect(w.strings('s', list)).toBe(true);
      const whole: string[] = [];
      const source = {
        get: (name: string) => (whole.push(name), w.parts.get(name)),
        has: (name: string) => w.parts.has(name),
        range: (name: string, from: number, to: number) => w.parts.get(name)!.subarray(from, to),
        byteLength: (name: string) => w.parts.get(name)?.byteLength,
      };
      const entries = new PartsReader(source).stringsOnDemand('s', list.length);
      expect(entries.length).toBe(list.length);
      expect(entries.range(1, 4)).toEqual(list.slice(1, 4));
      expect(entries.range(2, 2)).toEqual([]);
      list.forEach((v, i) => expect(entries.get(i)).toBe(v));
      expect(whole.includes('s.utf8')).toBe(list !== ascii);
    }
  });
});

describe('asciiLowerBytes', () => {
  it('lower-cases A–Z and leaves every other byte, at every alignment and length', () => {
    const all = Uint8Array.from({ length: 1027 }, (_, i) => (i * 7 + 3) % 256);
    for (let offset = 0; offset < 4; offset++) {
      for (const length of [0, 1, 3, 4, 5, 255, 1000]) {
        const src = all.subarray(offset, offset + length);
        const expected = Array.from(src, (b) => (b >= 65 && b <= 90 ? b + 32 : b));
        expect(Array.from(asciiLowerBytes(src)), `offset ${offset} length ${length}`).toEqual(expected);
      }
    }
  });
});
