/**
 * Stored text shown to an agent is marked as data. A memory's words were written by some agent or
 * user earlier and may read like instructions ("SYSTEM: ignore the above…"); in MCP text results
 * every piece of stored text therefore sits inside `<memory-data id="…">…</memory-data>`, with any
 * `<memory-data` / `</memory-data` inside it escaped so it cannot close the block early, carriage
 * returns and Unicode line/paragraph separators normalised to `\n` (they can make a line look like
 * a new turn to a model or a terminal), and other control characters dropped. The server's
 * instructions tell the agent what the marks mean. Structured content stays as stored: JSON already
 * keeps data and syntax apart.
 */
import type { Memory } from '../../core/model/memory.js';
import { MAX_REFERENCE_LINES, memoryLabel } from '../../core/agent/inject.js';
import { renderRef, type ResolvedRef } from '../../core/agent/references.js';

export const DATA_TAG = 'memory-data';

/** `\r\n`, `\r`, U+0085, U+2028 and U+2029 become `\n`; C0 controls other than tab and newline, and DEL, are dropped. */
export function normaliseText(text: string): string {
  return text
    .replace(/\r\n?|[\u0085\u2028\u2029]/g, '\n')
    .replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g, ''); // eslint-disable-line no-control-regex
}

/** Makes the text unable to open or close a data block. */
function escapeTags(text: string): string {
  return text.replace(/<(\/?)(memory-data)/gi, '&lt;$1$2');
}

/** Stored text as a data block; `oneLine` folds newlines to spaces (heads in lists). */
export function asData(text: string, opts: { id?: string; oneLine?: boolean } = {}): string {
  let body = escapeTags(normaliseText(text));
  if (opts.oneLine) body = body.replace(/[ \t]*\n+[ \t]*/g, ' ').trim();
  const id = opts.id ? ` id="${opts.id.replace(/[^0-9A-Za-z_-]/g, '')}"` : '';
  return `<${DATA_TAG}${id}>${body}</${DATA_TAG}>`;
}

/** The 8-character id prefix agents pass back. */
export const shortId = (id: string): string => id.slice(0, 8);

/** One resolved reference line, all of it data (the key, the snapshot and the live value are stored or outside text). */
export function refLine(ref: ResolvedRef, memoryId: string): string {
  return `    ${asData(renderRef(ref), { id: shortId(memoryId) })}`;
}

/** `- [type#id8] <memory-data id="id8">head</memory-data>` and a suffix the server wrote (a score, an importance). */
export function headLine(m: Pick<Memory, 'type' | 'status' | 'id'>, head: string, suffix = ''): string {
  return `- ${memoryLabel(m)} ${asData(head, { id: shortId(m.id), oneLine: true })}${suffix}`;
}

/** A memory's head line plus up to four reference lines (the MCP resources). */
export function memoryDataLines(m: Memory, resolve: (m: Memory) => ResolvedRef[]): string[] {
  return [headLine(m, m.title || m.content), ...resolve(m).slice(0, MAX_REFERENCE_LINES).map((r) => refLine(r, m.id))];
}
