/**
 * Strings of a snapshot kept as the UTF-8 bytes they were stored as (PartsWriter.strings'
 * layout): an entry becomes a string only when asked for, an entry is found by hashing its bytes,
 * and a search for an ASCII word runs over the bytes themselves.
 *
 * Reading a 100k-memory snapshot back used to make every id, owner and text a string and every
 * id a Map entry, in each of the four indexes that hold them: a few hundred thousand objects the
 * garbage collector then copied, for a one-shot command that reads a few hundred of them.
 */
import { Buffer } from 'node:buffer';
import { SnapshotMismatch, type PartsReader, type PartsWriter } from './snapshot-parts.js';

// As an int32 (the bits are the same), so an entry hashing nothing compares equal to its stored Int32Array cell.
const FNV_OFFSET = 0x811c9dc5 | 0;
const FNV_PRIME = 0x01000193;
const NONE = -1;

/** A part written by PartsWriter.strings, as StoredStrings (`expectedLength`: entries it must hold). */
export function readStoredStrings(r: PartsReader, name: string, expectedLength?: number): StoredStrings {
  return StoredStrings.fromUtf16Lengths(r.typed(`${name}.len`, Uint32Array, expectedLength), r.typed(`${name}.utf8`, Uint8Array), name);
}

/**
 * Writes distinct strings (PartsWriter.strings) with the hash table StoredStrings.index() would
 * make of them (`.table`, `.hashes`), so a reader looks entries up at once: hashing a million ids
 * on the first recall after an open took about 200 ms. False as for PartsWriter.strings; without
 * the table when two strings are equal (the reader then hashes, and finds the damage).
 */
export function writeIndexedStrings(w: PartsWriter, name: string, list: readonly string[]): boolean {
  if (!w.strings(name, list)) return false;
  const made = hashTable(list.length, (i) => utf8Hash(list[i]!).hash, (a, b) => list[a] === list[b]);
  if ('twins' in made) return true;
  w.typed(`${name}.table`, made.table);
  w.typed(`${name}.hashes`, made.hashes);
  return true;
}

/** A part written by writeIndexedStrings, with its stored hash table when it has one that fits; otherwise hashed now (index()). */
export function readIndexedStrings(r: PartsReader, name: string, expectedLength?: number): StoredStrings {
  const strings = readStoredStrings(r, name, expectedLength);
  if (strings.indexTables) return strings;
  if (!r.has(`${name}.table`)) return strings.index();
  const table = r.typed(`${name}.table`, Int32Array);
  const hashes = r.typed(`${name}.hashes`, Int32Array, table.length);
  strings.adoptIndex(table, hashes, name);
  return strings;
}

/**
 * Open addressing over entries 0..n-1 inserted in order (linear probing, tableSize cells): each
 * used cell holds entry + 1 and the entry's hash. Or the first two entries found equal.
 */
function hashTable(n: number, hashAt: (i: number) => number, equal: (a: number, b: number) => boolean): { table: Int32Array; hashes: Int32Array } | { twins: [number, number] } {
  const size = tableSize(n);
  const table = new Int32Array(size);
  const hashes = new Int32Array(size);
  const mask = size - 1;
  for (let i = 0; i < n; i++) {
    const h = hashAt(i);
    for (let cell = h & mask; ; cell = (cell + 1) & mask) {
      const other = table[cell]! - 1;
      if (other === NONE) {
        table[cell] = i + 1;
        hashes[cell] = h;
        break;
      }
      if (hashes[cell] === h && equal(other, i)) return { twins: [other, i] };
    }
  }
  return { table, hashes };
}

/** The table size index() uses for n entries: a power of two, at least twice n. */
function tableSize(n: number): number {
  let size = 16;
  while (size < n * 2) size *= 2;
  return size;
}

/** FNV-1a over a string's UTF-8 bytes, as index() hashes an entry's stored bytes; the bytes made only when the string is not ASCII. */
function utf8Hash(s: string): { hash: number; bytes: Buffer | null } {
  let h = FNV_OFFSET;
  for (let k = 0; k < s.length; k++) {
    const c = s.charCodeAt(k);
    if (c >= 0x80) {
      const bytes = Buffer.from(s, 'utf8');
      h = FNV_OFFSET;
      for (const b of bytes) h = Math.imul(h ^ b, FNV_PRIME);
      return { hash: h, bytes };
    }
    h = Math.imul(h ^ c, FNV_PRIME);
  }
  return { hash: h, bytes: null };
}

export class StoredStrings {
  private readonly buf: Buffer;
  /** The bytes with A–Z lower-cased, made by the first search (searches match SQLite's ASCII lower()). */
  private lowered: Buffer | null = null;
  /** Open addressing: entry + 1 per used cell, 0 for an empty one; power-of-two size. */
  private table: Int32Array | null = null;
  /**
   * Each used cell's entry hash: a probe compares bytes only where the hashes agree (comparing the
   * bytes of every entry a probe passed cost a 100k-entry part about as much as hashing it).
   */
  private hashes: Int32Array | null = null;
  /** By entry, its value's place in `distinct` (shared()); made by the first call. */
  private codes: Int32Array | null = null;
  private distinct: string[] = [];

  /**
   * `bytes`: the entries back to back as UTF-8; `starts[i]`..`starts[i + 1]` are entry i's bytes
   * (`starts` has one more element than there are entries).
   */
  private constructor(
    bytes: Uint8Array,
    readonly starts: Float64Array,
  ) {
    this.buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  /**
   * From the stored layout: the entries' UTF-16 lengths and their UTF-8 bytes. Where every entry is
   * ASCII (ids, owners: the byte count equals the UTF-16 count) the starts are the lengths' sums;
   * otherwise they are found by walking the bytes. Throws SnapshotMismatch when they do not add up.
   */
  static fromUtf16Lengths(lengths: Uint32Array, bytes: Uint8Array, name: string): StoredStrings {
    const known = madeFrom(lengths, bytes);
    if (known) return known;
    const starts = new Float64Array(lengths.length + 1);
    let units = 0;
    for (let i = 0; i < lengths.length; i++) starts[i + 1] = units += lengths[i]!;
    if (units !== bytes.byteLength && !walkStarts(lengths, bytes, starts)) throw new SnapshotMismatch(`snapshot part ${name}: lengths do not add up to its text`);
    const made = new StoredStrings(bytes, starts);
    rememberMade(lengths, bytes, made);
    return made;
  }

  /** From byte starts stored beside the bytes (PartsWriter.utf8Ranged): no walk over the bytes. Throws SnapshotMismatch when they do not fit. */
  static fromByteStarts(starts: Float64Array, bytes: Uint8Array, name: string): StoredStrings {
    let prev = 0;
    for (let i = 0; i < starts.length; i++) {
      const at = starts[i]!;
      if (!(at >= prev) || (i === 0 && at !== 0)) throw new SnapshotMismatch(`snapshot part ${name}.starts is not ascending at entry ${i}`);
      prev = at;
    }
    if (prev !== bytes.byteLength) throw new SnapshotMismatch(`snapshot part ${name}: its starts do not end at its last byte`);
    return new StoredStrings(bytes, starts);
  }

  get length(): number {
    return this.starts.length - 1;
  }

  get(i: number): string {
    return this.buf.toString('utf8', this.starts[i]!, this.starts[i + 1]!);
  }

  /**
   * Entry i as the one string every equal entry shares. For a part of few distinct values (the
   * owners), read row after row in a search's hot loop: get() made a new string each time, and
   * at 100k decoding owners and ids was a twentieth of an agent's recall. The first call decodes
   * every entry once and keeps a code per entry (four bytes each).
   */
  shared(i: number): string {
    if (!this.codes) {
      const codes = new Int32Array(this.length);
      const seen = new Map<string, number>();
      for (let e = 0; e < codes.length; e++) {
        const s = this.get(e);
        let code = seen.get(s);
        if (code === undefined) seen.set(s, (code = this.distinct.push(s) - 1));
        codes[e] = code;
      }
      this.codes = codes;
    }
    return this.distinct[this.codes[i]!]!;
  }

  /** Entries [from, to) as an array. */
  range(from: number, to: number): string[] {
    const out = new Array<string>(to - from);
    for (let i = from; i < to; i++) out[i - from] = this.get(i);
    return out;
  }

  toArray(): string[] {
    return this.range(0, this.length);
  }

  /** Entry i is empty. */
  isEmpty(i: number): boolean {
    return this.starts[i] === this.starts[i + 1];
  }

  /**
   * Hashes every entry now (the first indexOf would). Throws SnapshotMismatch when two entries are
   * equal: the indexes keyed by these strings never store one twice, so such a part is damaged.
   */
  index(): this {
    if (this.table) return this;
    const twin = indexedTwinOf(this);
    if (twin) {
      this.table = twin.table;
      this.hashes = twin.hashes;
      return this;
    }
    const bytes = this.buf;
    const hashAt = (i: number) => {
      let h = FNV_OFFSET;
      for (let k = this.starts[i]!, to = this.starts[i + 1]!; k < to; k++) h = Math.imul(h ^ bytes[k]!, FNV_PRIME);
      return h;
    };
    const made = hashTable(this.length, hashAt, (a, b) => this.sameEntries(a, b));
    if ('twins' in made) throw new SnapshotMismatch(`a stored string appears twice (entries ${made.twins[0]} and ${made.twins[1]})`);
    this.table = made.table;
    this.hashes = made.hashes;
    rememberIndexed(this);
    return this;
  }

  /**
   * Takes a hash table stored beside the entries (writeIndexedStrings) instead of hashing them.
   * Throws SnapshotMismatch when it cannot be theirs: a size index() would not make, or a count of
   * used cells or an entry number that does not fit (a lookup compares the bytes it finds, so a
   * table that fits can only fail to find).
   */
  adoptIndex(table: Int32Array, hashes: Int32Array, name: string): void {
    const n = this.length;
    if (table.length !== tableSize(n) || hashes.length !== table.length) throw new SnapshotMismatch(`snapshot part ${name}.table does not fit its ${n} entries`);
    let used = 0;
    for (let cell = 0; cell < table.length; cell++) {
      const v = table[cell]!;
      if (v === 0) continue;
      if (v < 0 || v > n) throw new SnapshotMismatch(`snapshot part ${name}.table names entry ${v - 1} of ${n}`);
      used++;
    }
    if (used !== n) throw new SnapshotMismatch(`snapshot part ${name}.table holds ${used} of its ${n} entries`);
    this.table = table;
    this.hashes = hashes;
    rememberIndexed(this);
  }

  /** Whether `other` holds the same entries, byte for byte (so the same hash table finds them). */
  sameAs(other: StoredStrings): boolean {
    if (other.length !== this.length || other.buf.byteLength !== this.buf.byteLength) return false;
    const starts = (x: StoredStrings) => Buffer.from(x.starts.buffer, x.starts.byteOffset, x.starts.byteLength);
    // The snapshot files of one sidecar hand their indexes one copy of a text part (PartsFile.get): no bytes to compare then.
    const sameBytes = (this.buf.buffer === other.buf.buffer && this.buf.byteOffset === other.buf.byteOffset) || this.buf.equals(other.buf);
    return sameBytes && starts(this).equals(starts(other));
  }

  /** This one's hash table, once made (indexedTwinOf). */
  get indexTables(): { table: Int32Array; hashes: Int32Array } | null {
    return this.table && this.hashes ? { table: this.table, hashes: this.hashes } : null;
  }

  /** The entry equal to `s`, or -1. */
  indexOf(s: string): number {
    const table = this.index().table!;
    const hashes = this.hashes!;
    const mask = table.length - 1;
    const { hash: h, bytes } = utf8Hash(s);
    if (!bytes) {
      for (let cell = h & mask; ; cell = (cell + 1) & mask) {
        const i = table[cell]! - 1;
        if (i === NONE) return NONE;
        if (hashes[cell] === h && this.equalsAscii(i, s)) return i;
      }
    }
    // Stored strings are well-formed; a lone surrogate would encode as U+FFFD and match one that holds it.
    if (!(s as unknown as { isWellFormed(): boolean }).isWellFormed()) return NONE;
    for (let cell = h & mask; ; cell = (cell + 1) & mask) {
      const i = table[cell]! - 1;
      if (i === NONE) return NONE;
      if (hashes[cell] !== h) continue;
      const from = this.starts[i]!;
      if (this.starts[i + 1]! - from === bytes.length && this.buf.compare(bytes, 0, bytes.length, from, from + bytes.length) === 0) return i;
    }
  }

  /**
   * Calls `found(i)`, in ascending order, for every entry whose text, ASCII-lower-cased, contains
   * `word` (made of a–z and 0–9, as nooa's keyword tokens are): `lower(text) LIKE '%word%'` over
   * the bytes. UTF-8 encodes every non-ASCII character in bytes ≥ 0x80, so no match starts or ends
   * inside one, and lower-casing only A–Z bytes is SQLite's ASCII lower() of the decoded text.
   */
  forEachContaining(word: string, found: (i: number) => void): void {
    const hay = (this.lowered ??= asciiLowerBytes(this.buf));
    const needle = Buffer.from(word, 'latin1');
    const starts = this.starts;
    const n = this.length;
    let entry = 0;
    for (let at = hay.indexOf(needle, 0); at >= 0; ) {
      while (starts[entry + 1]! <= at) entry++;
      const end = starts[entry + 1]!;
      // A match that runs into the next entry is not in this one; any later one starting here would too.
      if (at + needle.length <= end) found(entry);
      if (++entry >= n) return;
      at = hay.indexOf(needle, starts[entry]!);
    }
  }

  private sameEntries(a: number, b: number): boolean {
    const af = this.starts[a]!;
    const bf = this.starts[b]!;
    const len = this.starts[a + 1]! - af;
    return len === this.starts[b + 1]! - bf && this.buf.compare(this.buf, bf, bf + len, af, af + len) === 0;
  }

  private equalsAscii(i: number, s: string): boolean {
    const from = this.starts[i]!;
    if (this.starts[i + 1]! - from !== s.length) return false;
    for (let k = 0; k < s.length; k++) if (this.buf[from + k] !== s.charCodeAt(k)) return false;
    return true;
  }
}

/**
 * A copy of the bytes with A–Z made a–z, four bytes at a time where the bytes are aligned for it
 * (a byte at a time, this was the largest piece of a one-shot explain's search at 100k: 9 MB of
 * texts). In each byte of a word: below 0x80 and from 'A' (0x41) to 'Z' (0x5A) gets 0x20 added.
 */
export function asciiLowerBytes(src: Uint8Array): Buffer {
  const out = new Uint8Array(src.length);
  let k = 0;
  if (src.byteOffset % 4 === 0) {
    const words = Math.floor(src.length / 4);
    const from = new Uint32Array(src.buffer, src.byteOffset, words);
    const to = new Uint32Array(out.buffer, 0, words);
    for (let w = 0; w < words; w++) {
      const x = from[w]!;
      const low = x & 0x7f7f7f7f;
      // Per byte, bit 7 of low + 0x3f is set from 0x41 up, of low + 0x25 from 0x5b up; no carry crosses a byte.
      const upper = (low + 0x3f3f3f3f) & ~(low + 0x25252525) & ~x & 0x80808080;
      to[w] = x | (upper >>> 2);
    }
    k = words * 4;
  }
  for (; k < src.length; k++) {
    const b = src[k]!;
    out[k] = b - 65 < 26 && b >= 65 ? b | 32 : b;
  }
  return Buffer.from(out.buffer, 0, out.length);
}

/**
 * The entries' byte starts from their UTF-16 lengths, walking the UTF-8 lead bytes (one UTF-16
 * unit per character below U+10000, two above). False when the lengths do not fit the bytes.
 */
function walkStarts(lengths: Uint32Array, bytes: Uint8Array, starts: Float64Array): boolean {
  let at = 0;
  for (let i = 0; i < lengths.length; i++) {
    let units = lengths[i]!;
    while (units > 0) {
      const b = bytes[at];
      if (b === undefined) return false;
      if (b < 0x80) at += 1;
      else if (b < 0xe0) at += 2;
      else if (b < 0xf0) at += 3;
      else {
        at += 4;
        units--;
      }
      units--;
    }
    if (units < 0) return false;
    starts[i + 1] = at;
  }
  return at === bytes.byteLength;
}

/**
 * StoredStrings made lately, by the buffer of their bytes. The snapshot files of one sidecar hand
 * their indexes one copy of a part whose bytes agree block for block (PartsFile.get), so the ids
 * (and most owners) of every index of a store arrive as the same two buffers: one StoredStrings
 * then serves them all, with its starts (8 MB at a million entries, fresh memory that costs
 * milliseconds a megabyte to touch on small virtual machines), its hash table and its lower-cased copy.
 */
interface Made {
  lengths: WeakRef<ArrayBufferLike>;
  lengthsAt: number;
  count: number;
  bytesAt: number;
  byteLength: number;
  strings: WeakRef<StoredStrings>;
}
const madeByBytes = new WeakMap<ArrayBufferLike, Made[]>();

function madeFrom(lengths: Uint32Array, bytes: Uint8Array): StoredStrings | null {
  for (const m of madeByBytes.get(bytes.buffer) ?? []) {
    if (m.lengths.deref() !== lengths.buffer || m.lengthsAt !== lengths.byteOffset || m.count !== lengths.length) continue;
    if (m.bytesAt !== bytes.byteOffset || m.byteLength !== bytes.byteLength) continue;
    const strings = m.strings.deref();
    if (strings) return strings;
  }
  return null;
}

function rememberMade(lengths: Uint32Array, bytes: Uint8Array, strings: StoredStrings): void {
  const list = (madeByBytes.get(bytes.buffer) ?? []).filter((m) => m.strings.deref() && m.lengths.deref());
  list.push({ lengths: new WeakRef(lengths.buffer), lengthsAt: lengths.byteOffset, count: lengths.length, bytesAt: bytes.byteOffset, byteLength: bytes.byteLength, strings: new WeakRef(strings) });
  madeByBytes.set(bytes.buffer, list);
}

/**
 * Parts whose hash table was made lately. Every index of a store keeps the same ids in the same
 * order (the live memories by rowid), each in a snapshot of its own: at a million memories,
 * hashing them took about 230 ms an index, four times over on the first recall after an open,
 * where comparing the bytes with a part already hashed takes a few milliseconds.
 */
const indexed: WeakRef<StoredStrings>[] = [];
const INDEXED_KEPT = 8;

function rememberIndexed(s: StoredStrings): void {
  for (let i = indexed.length - 1; i >= 0; i--) if (!indexed[i]!.deref()) indexed.splice(i, 1);
  indexed.push(new WeakRef(s));
  if (indexed.length > INDEXED_KEPT) indexed.shift();
}

/** The hash table of a part already hashed that holds the same entries byte for byte, if one is still in memory. */
function indexedTwinOf(s: StoredStrings): { table: Int32Array; hashes: Int32Array } | null {
  for (const ref of indexed) {
    const other = ref.deref();
    const tables = other?.indexTables;
    if (other && other !== s && tables && other.sameAs(s)) return tables;
  }
  return null;
}
