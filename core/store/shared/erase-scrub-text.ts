/**
 * A matched text scrubbed out of the values the places of a match hold (erase-scrubs.ts): nooa's
 * `data` JSON (written back as nooa writes it), any JSON text, a journal image; and the JSON
 * parsed deep, for checking where the text is.
 */
import type { EraseNeedle } from '../../model/erase-text.js';
import { pyDumps } from '../../model/pyjson.js';
import { isErasedImageText } from './erase-markers.js';

/** A memory's nooa `data` with the text scrubbed from every string (written back as nooa writes it). */
export function scrubMemoryData(needle: EraseNeedle, data: string): string {
  try {
    return pyDumps(needle.scrubValue(JSON.parse(data)).value);
  } catch {
    return needle.scrub(data).text;
  }
}

/** Any JSON text with the text scrubbed from every string; text that is not JSON is scrubbed as text. */
export function scrubJsonText(needle: EraseNeedle, text: string | null): string | null {
  if (text === null) return null;
  try {
    return JSON.stringify(needle.scrubValue(JSON.parse(text)).value);
  } catch {
    return needle.scrub(text).text;
  }
}

/** A journal image with the text scrubbed: a memory image's `data` is nooa's JSON inside it, rewritten as nooa writes it. */
export function scrubImage(needle: EraseNeedle, key: string, text: string | null): string | null {
  if (text === null || isErasedImageText(text)) return text;
  const image = JSON.parse(text) as Record<string, unknown>;
  const row = image['row'];
  if (key.startsWith('m:') && row !== null && typeof row === 'object') {
    const data = (row as Record<string, unknown>)['data'];
    // The row's keys keep their order: data is scrubbed as nooa's JSON, in its own place.
    const scrubbed = needle.scrubValue({ ...image, row: { ...row, data: null } }).value as { row: Record<string, unknown> };
    scrubbed.row['data'] = typeof data === 'string' ? scrubMemoryData(needle, data) : data;
    return JSON.stringify(scrubbed);
  }
  return JSON.stringify(needle.scrubValue(image).value);
}

/** The memory a journal row is about: its key's (a memory row) or its image's (a tombstone). */
export function journalRowMemory(r: { key: string; before: string | null; after: string | null }): string {
  if (r.key.startsWith('m:')) return r.key.slice(2);
  if (!r.key.startsWith('t:')) return '';
  const image = deepParse(r.before ?? r.after ?? 'null') as { memory_id?: unknown } | null;
  return typeof image?.memory_id === 'string' ? image.memory_id : '';
}

/** A JSON text with every string that is itself JSON parsed too (a journal image's `data`), for checking; text that is not JSON stays text. */
export function deepParse(textValue: string): unknown {
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string' && (v.startsWith('{') || v.startsWith('['))) {
      try {
        return walk(JSON.parse(v));
      } catch {
        return v;
      }
    }
    if (Array.isArray(v)) return v.map(walk);
    if (v !== null && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x)]));
    return v;
  };
  try {
    return walk(JSON.parse(textValue));
  } catch {
    return textValue;
  }
}
