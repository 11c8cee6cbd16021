/**
 * Reads the fields scoring needs from nooa's `data` JSON without parsing the access ring as
 * JSON. The ring (64 entries of ~60–300 bytes) is most of a record; its entries only need `ts`
 * and `channel`, which a record written by nooa (or mnemo) always puts first, so a regex reads
 * them and `JSON.parse` sees only the small head and tail of the object. Loading 100k records
 * this way costs well under half of parsing them whole.
 *
 * The shortcut is checked, never trusted: inside a JSON string every `"` is escaped, so the
 * `"access_log": [` and `], "access_count":` markers cannot come from content; the number of
 * regex hits must equal the number of `"ts":` keys in the ring; and anything unexpected (a
 * legacy ring of bare floats, another key order, NaN/Infinity) returns null so the caller
 * parses the whole record.
 */
import { ACTR_CHANNELS, type AccessChannel } from '../model/enums.js';

export interface ScoringFields {
  type: string;
  importance: number;
  title: string | null;
  tags: string[];
  entities: string[];
  place_or_task: string | null;
  /** Timestamps of ring entries whose channel feeds ACT-R. */
  actr: Float64Array;
}

const RING_OPEN = /"access_log":\s*\[/;
const RING_CLOSE = /\]\s*,\s*"access_count":/g;
const ENTRY = /\{\s*"ts":\s*(-?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?)\s*,\s*"channel":\s*"([a-z]+)"/g;

export function scanScoringFields(data: string): ScoringFields | null {
  const open = RING_OPEN.exec(data);
  if (!open) return null;
  const ringStart = open.index + open[0].length;
  RING_CLOSE.lastIndex = ringStart;
  const close = RING_CLOSE.exec(data);
  if (!close) return null;
  const ring = data.slice(ringStart, close.index);
  const times: number[] = [];
  let hits = 0;
  ENTRY.lastIndex = 0;
  for (let m = ENTRY.exec(ring); m; m = ENTRY.exec(ring)) {
    hits++;
    if (ACTR_CHANNELS.has(m[2] as AccessChannel)) times.push(Number(m[1]));
  }
  let keys = 0;
  for (let i = ring.indexOf('"ts":'); i >= 0; i = ring.indexOf('"ts":', i + 5)) keys++;
  if (keys !== hits || (hits === 0 && ring.trim() !== '')) return null;

  let head: Record<string, unknown>;
  let tail: Record<string, unknown>;
  try {
    head = JSON.parse(`${data.slice(0, open.index).replace(/,\s*$/, '')}}`) as Record<string, unknown>;
    tail = JSON.parse(`{${data.slice(close.index + close[0].length - '"access_count":'.length)}`) as Record<string, unknown>;
  } catch {
    return null;
  }
  const strings = (v: unknown): string[] | null => (v === undefined ? [] : Array.isArray(v) && v.every((x) => typeof x === 'string') ? (v as string[]) : null);
  const tags = strings(tail['tags']);
  const entities = strings(tail['entities']);
  const place = tail['place_or_task'] ?? null;
  const title = head['title'] ?? null;
  const type = head['type'] ?? 'info';
  const importance = head['importance'] ?? 5.0;
  if (!tags || !entities || typeof type !== 'string' || typeof importance !== 'number') return null;
  if ((place !== null && typeof place !== 'string') || (title !== null && typeof title !== 'string')) return null;
  return { type, importance, title: title as string | null, tags, entities, place_or_task: place as string | null, actr: Float64Array.from(times) };
}
