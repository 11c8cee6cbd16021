/**
 * The text a memory is searched by (keyword-index.ts, cooccurrence-index.ts): its title, its
 * content and its tags, one per line. Read either from the row's JSON data or from the columns
 * SQLite's json_extract gives (port.ts BodyRow); both give the same text.
 */
import type { BodyRow } from '../../store/port/port.js';

/** The same text as bodyOf, from json_extract'ed columns. */
export function bodyFromColumns(r: BodyRow): string {
  const parts: string[] = [];
  if (typeof r.title === 'string' && r.title) parts.push(r.title);
  parts.push(r.content);
  let tags: unknown;
  try {
    tags = r.tags ? JSON.parse(r.tags) : null;
  } catch {
    tags = null;
  }
  if (Array.isArray(tags)) parts.push(tags.filter((t): t is string => typeof t === 'string').join(' '));
  return parts.join('\n');
}

export function bodyOf(data: string): string {
  let m: { title?: unknown; content?: unknown; tags?: unknown };
  try {
    m = JSON.parse(data) as typeof m;
  } catch {
    return '';
  }
  const parts: string[] = [];
  if (typeof m.title === 'string' && m.title) parts.push(m.title);
  if (typeof m.content === 'string') parts.push(m.content);
  if (Array.isArray(m.tags)) parts.push(m.tags.filter((t): t is string => typeof t === 'string').join(' '));
  return parts.join('\n');
}
