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
import { SnapshotMismatch, type PartsReader } from './snapshot-parts.js';

// As an int32 (the bits are the same), so an entry hashing nothing compares equal to its stored Int32Array cell.
const FNV_OFFSET = 0x811c9dc5 | 0;
const FNV_PRIME = 0x01000193;
const NONE = -1;

/** A part written by PartsWriter.strings, as StoredStrings (`expectedLength`: entries it must hold). */
export function readStoredStrings(r: PartsReader, name: string, expectedLength?: number): StoredStrings {
  return StoredStrings.fromUtf16Lengths(r.typed(`${name}.len`, Uint32Array, expectedLength), r.typed(`${name}.utf8`, Uint8Array), name);
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
    const starts = new Float64Array(lengths.length + 1);
    let units = 0;
    for (let i = 0; i < lengths.length; i++) starts[i + 1] = units += lengths[i]!;
    if (units !== bytes.byteLength && !walkStarts(lengths, bytes, starts)) throw new SnapshotMismatch(`snapshot part ${name}: lengths do not add up to its text`);
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
    const n = this.length;
    let size = 16;
    while (size < n * 2) size *= 2;
    const table = new Int32Array(size);
    const hashes = new Int32Array(size);
    const mask = size - 1;
    const bytes = this.buf;
    for (let i = 0; i < n; i++) {
      const from = this.starts[i]!;
      const to = this.starts[i + 1]!;
      let h = FNV_OFFSET;
      for (let k = from; k < to; k++) h = Math.imul(h ^ bytes[k]!, FNV_PRIME);
      for (let cell = h & mask; ; cell = (cell + 1) & mask) {
        const other = table[cell]! - 1;
        if (other === NONE) {
          table[cell] = i + 1;
          hashes[cell] = h;
          break;
        }
        if (hashes[cell] === h && this.sameEntries(other, i)) throw new SnapshotMismatch(`a stored string appears twice (entries ${other} and ${i})`);
      }
    }
    this.table = table;
    this.hashes = hashes;
    rememberIndexed(this);
    return this;
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
    let ascii = true;
    let h = FNV_OFFSET;
    for (let k = 0; k < s.length; k++) {
      const c = s.charCodeAt(k);
      if (c >= 0x80) {
        ascii = false;
        break;
      }
      h = Math.imul(h ^ c, FNV_PRIME);
    }
    if (ascii) {
      for (let cell = h & mask; ; cell = (cell + 1) & mask) {
        const i = table[cell]! - 1;
        if (i === NONE) return NONE;
        if (hashes[cell] === h && this.equalsAscii(i, s)) return i;
      }
    }
    // Stored strings are well-formed; a lone surrogate would encode as U+FFFD and match one that holds it.
    if (!(s as unknown as { isWellFormed(): boolean }).isWellFormed()) return NONE;
    const bytes = Buffer.from(s, 'utf8');
    h = FNV_OFFSET;
    for (let k = 0; k < bytes.length; k++) h = Math.imul(h ^ bytes[k]!, FNV_PRIME);
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
