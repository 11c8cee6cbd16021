/**
 * Text PostgreSQL cannot keep exactly, refused before it is sent:
 *
 * - the NUL character (U+0000): PostgreSQL's text types cannot hold it; SQLite's can, and a store
 *   written by nooa (Python) or by an agent may hold one. Sent as is, the value failed at the server
 *   ("invalid byte sequence for encoding UTF8: 0x00"), which reached callers as an internal error
 *   naming our SQL.
 * - a lone UTF-16 surrogate (U+D800..U+DFFF without its pair): a JavaScript string can carry one
 *   (from a JSON `\ud800` escape, say), UTF-8 cannot. The driver encoded it as U+FFFD without a
 *   word, so `coder\ud800@1` was stored as another owner than the one the caller named.
 *
 * Found before the statement is sent, it is what it is, the caller's input: a bad_input error that
 * shows the value, with nothing sent, so the call that carried it writes nothing.
 */
import { MnemoError } from '../../errors.js';

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** String.prototype.isWellFormed (Node 20; newer than the ES2022 library the project compiles against). */
const wellFormed = (s: string): boolean => (s as unknown as { isWellFormed(): boolean }).isWellFormed();

type Problem = { value: string; at: number; what: 'nul' | 'surrogate' };

/** The text around position `at`, escaped as JSON escapes it (a lone surrogate shows as \udXXX), cut to a readable length. */
function preview(value: string, at: number): string {
  const start = Math.max(0, at - 30);
  const cut = value.slice(start, at + 30);
  return `${start > 0 ? '…' : ''}${JSON.stringify(cut).slice(1, -1)}${at + 30 < value.length ? '…' : ''}`;
}

function firstProblem(value: unknown): Problem | null {
  if (typeof value === 'string') {
    const nul = value.indexOf('\u0000');
    if (nul >= 0) return { value, at: nul, what: 'nul' };
    if (!wellFormed(value)) return { value, at: LONE_SURROGATE.exec(value)?.index ?? 0, what: 'surrogate' };
    return null;
  }
  // Bulk statements send one array per column (unnest); bytea goes as bytes and cannot hit this.
  if (Array.isArray(value)) {
    for (const item of value) {
      const found = firstProblem(item);
      if (found !== null) return found;
    }
  }
  return null;
}

/** A typed error for the first parameter holding text PostgreSQL cannot keep exactly, or null when none does. */
export function nulTextError(params: readonly unknown[]): MnemoError | null {
  const found = firstProblem(params);
  if (found === null) return null;
  const shown = preview(found.value, found.at);
  if (found.what === 'surrogate') {
    const unit = found.value.charCodeAt(found.at).toString(16);
    return new MnemoError(
      'bad_input',
      `"${shown}" holds a lone surrogate (\\u${unit}: half of a UTF-16 pair), which UTF-8 and so PostgreSQL cannot keep; it would be stored as U+FFFD, another value. Send the whole character (both halves of the pair) or remove it`,
      { reason: 'lone_surrogate' },
    );
  }
  return new MnemoError(
    'bad_input',
    `"${shown}" holds a NUL character (\\u0000), which a PostgreSQL store cannot keep in text; remove the character and send it again (a SQLite store can keep it)`,
    { reason: 'nul_in_text' },
  );
}
