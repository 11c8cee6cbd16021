/**
 * The pieces a derived index's snapshot is made of: named byte arrays (typed arrays as they lie in
 * memory, strings as one UTF-8 run plus their lengths). Encoding only; index-sidecar.ts stores
 * them. Little-endian is assumed (every platform Node ships on), and the sidecar's format records
 * it so a big-endian reader would rebuild instead of misreading.
 */
import { Buffer } from 'node:buffer';

export type SnapshotParts = Map<string, Uint8Array>;

/**
 * Where a snapshot's parts are read from: a written snapshot (SnapshotParts), or a generation's
 * file that reads each part, and checks its CRC, the first time it is asked for (snapshot-file.ts
 * PartsFile). `get` throws SnapshotDamaged when a part's bytes do not match.
 */
export interface PartSource {
  get(name: string): Uint8Array | undefined;
  has(name: string): boolean;
  /** Bytes [from, to) of a part, without reading the rest of it (a file's parts); absent: sliced from get(). */
  range?(name: string, from: number, to: number): Uint8Array;
  /** A part's length in bytes without reading it (a file's parts); absent: get()'s. */
  byteLength?(name: string): number | undefined;
}

type Typed = Int32Array | Uint32Array | Float32Array | Float64Array | Uint8Array | Uint16Array;
type TypedCtor<T extends Typed> = { new (buffer: ArrayBuffer, byteOffset: number, length: number): T; readonly BYTES_PER_ELEMENT: number };

/** Thrown when a snapshot's pieces do not fit together; the caller rebuilds. */
export class SnapshotMismatch extends Error {}

/** Thrown when a part's bytes read back do not match their length or CRC (a damaged file). */
export class SnapshotDamaged extends SnapshotMismatch {}

export class PartsWriter {
  readonly parts: SnapshotParts = new Map();

  typed(name: string, a: Typed): void {
    this.parts.set(name, new Uint8Array(a.buffer, a.byteOffset, a.byteLength));
  }

  /**
   * Strings as one UTF-8 run and their UTF-16 lengths (so reading back slices one decoded string).
   * Returns false when a string is not well-formed UTF-16 (a lone surrogate would not survive
   * UTF-8): such an index is not snapshotted.
   */
  strings(name: string, list: readonly string[]): boolean {
    const lengths = new Uint32Array(list.length);
    for (let i = 0; i < list.length; i++) {
      const s = list[i]!;
      if (!isWellFormed(s)) return false;
      lengths[i] = s.length;
    }
    this.typed(`${name}.len`, lengths);
    this.parts.set(`${name}.utf8`, new TextEncoder().encode(list.join('')));
    return true;
  }

  /**
   * Strings each encoded on its own, with their UTF-8 byte lengths, so a reader decodes one entry
   * when it needs it (Utf8Run) rather than the whole run up front. False as for strings().
   */
  utf8Each(name: string, list: readonly string[]): boolean {
    const encoder = new TextEncoder();
    const encoded: Uint8Array[] = new Array<Uint8Array>(list.length);
    const bytes = new Uint32Array(list.length);
    let total = 0;
    for (let i = 0; i < list.length; i++) {
      if (!isWellFormed(list[i]!)) return false;
      encoded[i] = encoder.encode(list[i]!);
      bytes[i] = encoded[i]!.byteLength;
      total += bytes[i]!;
    }
    const all = new Uint8Array(total);
    let at = 0;
    for (const e of encoded) {
      all.set(e, at);
      at += e.byteLength;
    }
    this.typed(`${name}.bytes`, bytes);
    this.parts.set(`${name}.utf8`, all);
    return true;
  }

  /**
   * Strings as one UTF-8 run and each one's byte start (`.starts`, float64, one more than there
   * are strings), so a reader decodes entry i from two numbers and its bytes, and reads nothing
   * whole (RangedStrings). False as for strings().
   */
  utf8Ranged(name: string, list: readonly string[]): boolean {
    const starts = new Float64Array(list.length + 1);
    for (let i = 0; i < list.length; i++) {
      if (!isWellFormed(list[i]!)) return false;
      starts[i + 1] = starts[i]! + Buffer.byteLength(list[i]!, 'utf8');
    }
    this.typed(`${name}.starts`, starts);
    this.parts.set(`${name}.utf8`, new TextEncoder().encode(list.join('')));
    return true;
  }

  json(name: string, value: unknown): void {
    this.parts.set(name, new TextEncoder().encode(JSON.stringify(value)));
  }
}

export class PartsReader {
  constructor(private readonly parts: PartSource) {}

  has(name: string): boolean {
    return this.parts.has(name);
  }

  private bytes(name: string): Uint8Array {
    const b = this.parts.get(name);
    if (!b) throw new SnapshotMismatch(`snapshot part ${name} is missing`);
    return b;
  }

  typed<T extends Typed>(name: string, ctor: TypedCtor<T>, expectedLength?: number): T {
    const b = this.bytes(name);
    if (b.byteLength % ctor.BYTES_PER_ELEMENT !== 0) throw new SnapshotMismatch(`snapshot part ${name} has a partial element`);
    const out = viewAs(b, ctor);
    if (expectedLength !== undefined && out.length !== expectedLength) throw new SnapshotMismatch(`snapshot part ${name} has ${out.length} entries, expected ${expectedLength}`);
    return out;
  }

  /** A part's length in elements of `ctor`'s size, without reading it where the source allows. */
  lengthOf(name: string, ctor: { readonly BYTES_PER_ELEMENT: number }): number {
    const bytes = this.parts.byteLength ? this.parts.byteLength(name) : this.parts.get(name)?.byteLength;
    if (bytes === undefined) throw new SnapshotMismatch(`snapshot part ${name} is missing`);
    if (bytes % ctor.BYTES_PER_ELEMENT !== 0) throw new SnapshotMismatch(`snapshot part ${name} has a partial element`);
    return bytes / ctor.BYTES_PER_ELEMENT;
  }

  /** Elements [from, to) of a typed part, reading only the bytes that hold them where the source allows. */
  typedRange<T extends Typed>(name: string, ctor: TypedCtor<T>, from: number, to: number): T {
    const size = ctor.BYTES_PER_ELEMENT;
    const b = this.parts.range ? this.parts.range(name, from * size, to * size) : this.bytes(name).subarray(from * size, to * size);
    if (b.byteLength !== (to - from) * size) throw new SnapshotMismatch(`snapshot part ${name} ends before entry ${to}`);
    return viewAs(b, ctor);
  }

  strings(name: string, expectedLength?: number): string[] {
    const run = this.stringRun(name, expectedLength);
    const out = new Array<string>(run.length);
    for (let i = 0; i < run.length; i++) out[i] = run.get(i);
    return out;
  }

  /** The strings as one decoded run, each sliced out when asked for (no string per entry up front). */
  stringRun(name: string, expectedLength?: number): StringRun {
    const lengths = this.typed(`${name}.len`, Uint32Array, expectedLength);
    // Not fatal: the part's blocks passed their CRCs, so these are the bytes written from well-formed
    // strings, and the lengths below must still add up. A fatal decoder validates every byte again:
    // five times the cost (about 140 ms of the first recall after opening a 100k store).
    const all = new TextDecoder().decode(this.bytes(`${name}.utf8`));
    const starts = prefixSums(lengths);
    if (starts[lengths.length] !== all.length) throw new SnapshotMismatch(`snapshot part ${name}: lengths do not add up to its text`);
    return new StringRun(all, starts);
  }

  /**
   * A part written by strings(), read an entry range at a time where every entry is ASCII (the
   * bytes then add up to the UTF-16 lengths, so the lengths alone place an entry's bytes);
   * otherwise decoded whole, as stringRun. For parts a command reads a few hundred entries of:
   * a one-shot explain at 100k decoded about 8 MB of edge targets and cues to read a few KB.
   */
  stringsOnDemand(name: string, expectedLength?: number): StringEntries {
    const lengths = this.typed(`${name}.len`, Uint32Array, expectedLength);
    const starts = prefixSums(lengths);
    if (starts[lengths.length] !== this.lengthOf(`${name}.utf8`, Uint8Array)) return this.stringRun(name, expectedLength);
    return new Utf8Run((from, to) => this.typedRange(`${name}.utf8`, Uint8Array, from, to), starts);
  }

  /**
   * Strings written by PartsWriter.utf8Each, each read (where the source allows: only its bytes)
   * and decoded when asked for; get() throws SnapshotDamaged when those bytes are damaged.
   */
  utf8Run(name: string, expectedLength?: number): Utf8Run {
    const bytes = this.typed(`${name}.bytes`, Uint32Array, expectedLength);
    const starts = prefixSums(bytes);
    if (starts[bytes.length] !== this.lengthOf(`${name}.utf8`, Uint8Array)) throw new SnapshotMismatch(`snapshot part ${name}: lengths do not add up to its bytes`);
    return new Utf8Run((from, to) => this.typedRange(`${name}.utf8`, Uint8Array, from, to), starts);
  }

  /** A part written by PartsWriter.utf8Ranged, read an entry at a time (throws SnapshotMismatch when its lengths do not fit). */
  rangedStrings(name: string, expectedLength?: number): RangedStrings {
    const count = this.lengthOf(`${name}.starts`, Float64Array) - 1;
    if (count < 0 || (expectedLength !== undefined && count !== expectedLength)) throw new SnapshotMismatch(`snapshot part ${name}.starts has ${count + 1} entries, expected ${(expectedLength ?? 0) + 1}`);
    return new RangedStrings(this, name, count, this.lengthOf(`${name}.utf8`, Uint8Array));
  }

  json<T>(name: string): T {
    return JSON.parse(new TextDecoder().decode(this.bytes(name))) as T;
  }
}

/** Strings of a snapshot by entry, however they are held. */
export interface StringEntries {
  readonly length: number;
  get(i: number): string;
  /** Entries [from, to) as an array. */
  range(from: number, to: number): string[];
}

/** Strings stored back to back as UTF-8: entry i is bytes [starts[i], starts[i + 1]), read and decoded on demand. */
export class Utf8Run implements StringEntries {
  // Not fatal: the bytes' checksum matched, so these are the bytes written from well-formed strings.
  private readonly decoder = new TextDecoder();

  constructor(
    private readonly utf8: (from: number, to: number) => Uint8Array,
    private readonly starts: Float64Array,
  ) {}

  get length(): number {
    return this.starts.length - 1;
  }

  get(i: number): string {
    return this.decoder.decode(this.utf8(this.starts[i]!, this.starts[i + 1]!));
  }

  /** Entries [from, to), their bytes read in one go. */
  range(from: number, to: number): string[] {
    if (to <= from) return [];
    const base = this.starts[from]!;
    const bytes = this.utf8(base, this.starts[to]!);
    const out = new Array<string>(to - from);
    for (let i = from; i < to; i++) out[i - from] = this.decoder.decode(bytes.subarray(this.starts[i]! - base, this.starts[i + 1]! - base));
    return out;
  }
}

/**
 * Strings written by PartsWriter.utf8Ranged: entry i's byte start and end are read from `.starts`
 * and its bytes from `.utf8` when it is asked for, so a million entries cost nothing until then.
 */
export class RangedStrings implements StringEntries {
  private readonly decoder = new TextDecoder();

  constructor(
    private readonly r: PartsReader,
    private readonly name: string,
    readonly length: number,
    private readonly byteLength: number,
  ) {}

  get(i: number): string {
    if (!(i >= 0 && i < this.length)) throw new SnapshotMismatch(`snapshot part ${this.name} has no entry ${i}`);
    const [from, to] = this.r.typedRange(`${this.name}.starts`, Float64Array, i, i + 2);
    if (!(from! >= 0 && from! <= to! && to! <= this.byteLength)) throw new SnapshotMismatch(`snapshot part ${this.name}.starts places entry ${i} outside its bytes`);
    return this.decoder.decode(this.r.typedRange(`${this.name}.utf8`, Uint8Array, from!, to!));
  }

  range(from: number, to: number): string[] {
    if (to <= from) return [];
    if (!(from >= 0 && to <= this.length)) throw new SnapshotMismatch(`snapshot part ${this.name} has no entries ${from}-${to}`);
    const starts = this.r.typedRange(`${this.name}.starts`, Float64Array, from, to + 1);
    const base = starts[0]!;
    const end = starts[to - from]!;
    if (!(base >= 0 && base <= end && end <= this.byteLength)) throw new SnapshotMismatch(`snapshot part ${this.name}.starts places entries ${from}-${to} outside its bytes`);
    const bytes = this.r.typedRange(`${this.name}.utf8`, Uint8Array, base, end);
    const out = new Array<string>(to - from);
    for (let k = 0; k < to - from; k++) {
      const a = starts[k]!;
      const b = starts[k + 1]!;
      if (!(a <= b && b <= end)) throw new SnapshotMismatch(`snapshot part ${this.name}.starts is not ascending at entry ${from + k}`);
      out[k] = this.decoder.decode(bytes.subarray(a - base, b - base));
    }
    return out;
  }

  /** Every start, read whole (for a reader that needs every entry). */
  allStarts(): Float64Array {
    return this.r.typed(`${this.name}.starts`, Float64Array, this.length + 1);
  }

  /** Every entry's bytes, read whole. */
  allBytes(): Uint8Array {
    return this.r.typed(`${this.name}.utf8`, Uint8Array);
  }
}

/** Strings stored back to back: entry i is text[starts[i], starts[i + 1]). */
export class StringRun implements StringEntries {
  constructor(
    private readonly text: string,
    private readonly starts: Float64Array,
  ) {}

  get length(): number {
    return this.starts.length - 1;
  }

  get(i: number): string {
    return this.text.slice(this.starts[i]!, this.starts[i + 1]!);
  }

  /** Entries [from, to) as an array. */
  range(from: number, to: number): string[] {
    const out = new Array<string>(to - from);
    for (let i = from; i < to; i++) out[i - from] = this.get(i);
    return out;
  }
}

/**
 * The bytes as a typed array: a view when they are aligned for the type (a part read back sits at
 * offset 0 of its own buffer), otherwise a copy (a typed array cannot start at a misaligned offset).
 */
function viewAs<T extends Typed>(b: Uint8Array, ctor: TypedCtor<T>): T {
  let source = b;
  if (b.byteOffset % ctor.BYTES_PER_ELEMENT !== 0) {
    source = new Uint8Array(b.byteLength);
    source.set(b);
  }
  return new ctor(source.buffer as ArrayBuffer, source.byteOffset, b.byteLength / ctor.BYTES_PER_ELEMENT);
}

/** starts[i] = counts[0] + … + counts[i − 1], with one more entry for the total. */
export function prefixSums(counts: ArrayLike<number>): Float64Array {
  const starts = new Float64Array(counts.length + 1);
  for (let i = 0; i < counts.length; i++) starts[i + 1] = starts[i]! + counts[i]!;
  return starts;
}

/** String.prototype.isWellFormed (ES2024), which this project's lib setting does not type yet. */
function isWellFormed(s: string): boolean {
  return (s as unknown as { isWellFormed(): boolean }).isWellFormed();
}
