/**
 * The text an erase by match (`mnemo erase --match TEXT`) looks for, and how it is scrubbed out of
 * what it finds. One rule for every place and both backends: the text matches wherever it occurs
 * inside a string, with ASCII letters compared case-insensitively (SQLite's `lower()` without ICU
 * and PostgreSQL's `lower()` on the store's byte-order "C" text fold exactly those, so a search in
 * SQL and the check here agree). Other letters are compared as they are.
 *
 * Pure: the store's erase (core/store/shared/erase-*.ts) and the doors use it alike.
 */
import { pyString } from './pyjson.js';

/** What an occurrence is replaced by, wherever the text is scrubbed rather than removed with its row. */
export const ERASED_TEXT = '[erased]';

/** Limits of the text: shorter would match half the store; longer is not something anyone types. */
export const MATCH_MIN_CHARS = 3;
export const MATCH_MAX_CHARS = 1000;

/** ASCII letters folded to lower case, everything else as it is (the SQL functions' fold). */
export function asciiLower(s: string): string {
  return s.replace(/[A-Z]+/g, (m) => m.toLowerCase());
}

export class EraseNeedle {
  readonly folded: string;
  /**
   * The forms the text takes in a column, folded: as it is, and as JSON writes it inside a string
   * (JSON.stringify's escapes, and Python's ASCII-only escapes for nooa's `data`). A column holding
   * none of them cannot hold the text, so SQL narrows the rows to these before the check here.
   */
  readonly forms: readonly string[];

  constructor(readonly text: string) {
    this.folded = asciiLower(text);
    const forms = new Set([this.folded, asciiLower(JSON.stringify(text).slice(1, -1)), asciiLower(pyString(text).slice(1, -1))]);
    this.forms = [...forms].filter((f) => f.length > 0);
  }

  /** Whether the text occurs in `s`. */
  in(s: string | null | undefined): boolean {
    return typeof s === 'string' && asciiLower(s).includes(this.folded);
  }

  /** `s` with every occurrence replaced by ERASED_TEXT, and how many there were. */
  scrub(s: string): { text: string; n: number } {
    const folded = asciiLower(s);
    let at = folded.indexOf(this.folded);
    if (at < 0) return { text: s, n: 0 };
    let out = '';
    let from = 0;
    let n = 0;
    while (at >= 0) {
      out += s.slice(from, at) + ERASED_TEXT;
      from = at + this.text.length;
      n++;
      at = folded.indexOf(this.folded, from);
    }
    return { text: out + s.slice(from), n };
  }

  /** Whether any string (or object key) inside a parsed JSON value holds the text. */
  inValue(v: unknown): boolean {
    if (typeof v === 'string') return this.in(v);
    if (Array.isArray(v)) return v.some((x) => this.inValue(x));
    if (v !== null && typeof v === 'object') return Object.entries(v).some(([k, x]) => this.in(k) || this.inValue(x));
    return false;
  }

  /** A parsed JSON value with the text scrubbed out of every string and key (a new value), and how many occurrences went. */
  scrubValue(v: unknown): { value: unknown; n: number } {
    let n = 0;
    const walk = (x: unknown): unknown => {
      if (typeof x === 'string') {
        const r = this.scrub(x);
        n += r.n;
        return r.text;
      }
      if (Array.isArray(x)) return x.map(walk);
      if (x !== null && typeof x === 'object') {
        const out: Record<string, unknown> = {};
        for (const [k, val] of Object.entries(x)) {
          const key = this.scrub(k);
          n += key.n;
          out[key.text] = walk(val);
        }
        return out;
      }
      return x;
    };
    const value = walk(v);
    return { value, n };
  }
}
