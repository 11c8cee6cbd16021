/**
 * The few fields of every memory that the review of a reflection plan filters and sorts on (type,
 * owner, title and the start of the content), read in one pass without parsing the `data` payload
 * beyond the title. A 100k store's heads take a few tens of MB and are read once per plan.
 */
import { connectionOf } from './connection.js';
import { jsonField } from './json-sql.js';
import type { RowSource } from '../shared/store-handle.js';

export interface MemoryHead {
  type: string;
  owner: string;
  title: string | null;
  /** The content's first characters (enough for a text filter over what the card shows). */
  content: string;
}

/** Characters of content kept per memory for the text filter. */
const CONTENT_PREFIX = 300;

export function memoryHeads(source: RowSource): Map<string, MemoryHead> {
  const db = connectionOf(source);
  const out = new Map<string, MemoryHead>();
  const rows = db.prepare(`SELECT id, type, owner, ${jsonField('data', '$.title')} AS title, substr(content, 1, ?) AS content FROM memories`).iterate(CONTENT_PREFIX) as Iterable<{
    id: string;
    type: string;
    owner: string | null;
    title: unknown;
    content: string | null;
  }>;
  for (const r of rows) out.set(r.id, { type: r.type, owner: r.owner ?? '', title: typeof r.title === 'string' ? r.title : null, content: r.content ?? '' });
  return out;
}
