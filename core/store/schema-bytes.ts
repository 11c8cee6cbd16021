/**
 * The tables of a SQLite file read from its bytes, without a SQLite connection. Even a read-only
 * connection to a WAL-mode database creates `-wal` and `-shm` files beside it and leaves them
 * there; for a file that may belong to another program (a browser's cookie jar), looking must not
 * change anything. A WAL database with no `-wal` file is fully checkpointed, so its main file holds
 * the whole schema: this walks the `sqlite_master` table b-tree (rooted at page 1) and returns each
 * table's name and CREATE statement. Layout per https://www.sqlite.org/fileformat2.html.
 */
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';

const MAX_DEPTH = 20;

function varint(buf: Buffer, at: number): [value: number, next: number] {
  let v = 0;
  for (let i = 0; i < 8; i++) {
    const b = buf[at + i]!;
    v = v * 128 + (b & 0x7f);
    if ((b & 0x80) === 0) return [v, at + i + 1];
  }
  return [v * 256 + buf[at + 8]!, at + 9];
}

/** Byte length of a record value of serial type `t`. */
function serialSize(t: number): number {
  if (t >= 12) return Math.floor((t - (t % 2 === 0 ? 12 : 13)) / 2);
  return [0, 1, 2, 3, 4, 6, 8, 8, 0, 0, 0, 0][t]!;
}

class PageReader {
  readonly pageSize: number;
  readonly usable: number;
  readonly pages: number;
  readonly decode: (b: Buffer) => string;
  constructor(private readonly fd: number) {
    const head = this.read(0, 100);
    const raw = head.readUInt16BE(16);
    this.pageSize = raw === 1 ? 65536 : raw;
    this.usable = this.pageSize - head[20]!;
    this.pages = Math.floor(fstatSync(fd).size / this.pageSize);
    const enc = head.readUInt32BE(56);
    this.decode = enc === 2 ? (b) => b.toString('utf16le') : enc === 3 ? (b) => Buffer.from(b).swap16().toString('utf16le') : (b) => b.toString('utf8');
  }
  read(offset: number, length: number): Buffer {
    const buf = Buffer.alloc(length);
    if (readSync(this.fd, buf, 0, length, offset) !== length) throw new Error('short read');
    return buf;
  }
  page(n: number): Buffer {
    if (n < 1 || n > this.pages) throw new Error(`page ${n} out of range`);
    return this.read((n - 1) * this.pageSize, this.pageSize);
  }
}

/** The payload of a table-leaf cell, following its overflow chain when it has one. */
function payload(r: PageReader, page: Buffer, at: number): Buffer {
  const [size, afterSize] = varint(page, at);
  const [, start] = varint(page, afterSize); // rowid
  const u = r.usable;
  const maxLocal = u - 35;
  const minLocal = Math.floor(((u - 12) * 32) / 255) - 23;
  if (size <= maxLocal) return page.subarray(start, start + size);
  const k = minLocal + ((size - minLocal) % (u - 4));
  const local = k <= maxLocal ? k : minLocal;
  const parts = [page.subarray(start, start + local)];
  let left = size - local;
  let next = page.readUInt32BE(start + local);
  for (let hops = 0; left > 0 && next !== 0 && hops < r.pages; hops++) {
    const ov = r.page(next);
    const take = Math.min(left, u - 4);
    parts.push(ov.subarray(4, 4 + take));
    left -= take;
    next = ov.readUInt32BE(0);
  }
  return Buffer.concat(parts);
}

/** The first `n` columns of a record, text as strings and anything else as null. */
function columns(r: PageReader, rec: Buffer, n: number): (string | null)[] {
  const [headerSize, first] = varint(rec, 0);
  const types: number[] = [];
  for (let at = first; at < headerSize && types.length < n; ) {
    const [t, next] = varint(rec, at);
    types.push(t);
    at = next;
  }
  const out: (string | null)[] = [];
  let at = headerSize;
  for (const t of types) {
    const len = serialSize(t);
    out.push(t >= 13 && t % 2 === 1 ? r.decode(rec.subarray(at, at + len)) : null);
    at += len;
  }
  return out;
}

function walk(r: PageReader, n: number, depth: number, seen: Set<number>, into: Map<string, string>): void {
  if (depth > MAX_DEPTH || seen.has(n)) throw new Error('malformed schema b-tree');
  seen.add(n);
  const page = r.page(n);
  const off = n === 1 ? 100 : 0;
  const kind = page[off];
  const cells = page.readUInt16BE(off + 3);
  if (kind === 0x05) {
    for (let i = 0; i < cells; i++) walk(r, page.readUInt32BE(page.readUInt16BE(off + 12 + 2 * i)), depth + 1, seen, into);
    walk(r, page.readUInt32BE(off + 8), depth + 1, seen, into);
    return;
  }
  if (kind !== 0x0d) throw new Error(`unexpected page type ${kind}`);
  for (let i = 0; i < cells; i++) {
    const [type, name, , , sql] = columns(r, payload(r, page, page.readUInt16BE(off + 8 + 2 * i)), 5);
    if (type === 'table' && name) into.set(name, sql ?? '');
  }
}

/** Table name → CREATE statement, from the main file alone; null when the bytes do not parse. */
export function tablesFromFileBytes(path: string): Map<string, string> | null {
  const fd = openSync(path, 'r');
  try {
    const r = new PageReader(fd);
    const tables = new Map<string, string>();
    walk(r, 1, 0, new Set(), tables);
    return tables;
  } catch {
    return null;
  } finally {
    closeSync(fd);
  }
}

/** Whether the file's header says WAL mode (file format read/write versions 2). */
export function isWalModeFile(path: string): boolean {
  const fd = openSync(path, 'r');
  try {
    const b = Buffer.alloc(2);
    return readSync(fd, b, 0, 2, 18) === 2 && b[0] === 2 && b[1] === 2;
  } finally {
    closeSync(fd);
  }
}
