/**
 * PostgreSQL's text types cannot hold the NUL character (U+0000); SQLite's can, and a store written
 * by nooa (Python) or by an agent may hold one. Sent as is, the value fails at the server ("invalid
 * byte sequence for encoding UTF8: 0x00"), which reached callers as an internal error naming our
 * SQL. Found before the statement is sent, it is what it is, the caller's input: a bad_input error
 * that shows the value, with nothing sent, so the call that carried it writes nothing.
 */
import { MnemoError } from '../../errors.js';

/** The text around the first NUL, escaped as JSON escapes it, cut to a readable length. */
function preview(value: string): string {
  const at = value.indexOf('\u0000');
  const start = Math.max(0, at - 30);
  const cut = value.slice(start, at + 30);
  return `${start > 0 ? '…' : ''}${JSON.stringify(cut).slice(1, -1)}${at + 30 < value.length ? '…' : ''}`;
}

function firstNul(value: unknown): string | null {
  if (typeof value === 'string') return value.includes('\u0000') ? value : null;
  // Bulk statements send one array per column (unnest); bytea goes as bytes and cannot hit this.
  if (Array.isArray(value)) {
    for (const item of value) {
      const found = firstNul(item);
      if (found !== null) return found;
    }
  }
  return null;
}

/** A typed error for the first parameter holding a NUL character, or null when none does. */
export function nulTextError(params: readonly unknown[]): MnemoError | null {
  const found = firstNul(params);
  if (found === null) return null;
  return new MnemoError(
    'bad_input',
    `"${preview(found)}" holds a NUL character (\\u0000), which a PostgreSQL store cannot keep in text; remove the character and send it again (a SQLite store can keep it)`,
    { reason: 'nul_in_text' },
  );
}
