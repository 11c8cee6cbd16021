/**
 * The change feed's table and the triggers that fill it (migration 007). Every change to nooa's own
 * tables (`memories`, `memory_edges`) appends one row with a sequence number, whoever made it: this
 * process, another Mnemo process, or a program that knows nothing of Mnemo (a nooa agent writing
 * the same file). Readers catch up by reading the rows after the last sequence number they saw, and
 * time travel rolls the current state back with the before-images the rows carry.
 *
 * The triggers run inside whichever SQLite the writer links (Python's may be years older than
 * ours), so they use only what every SQLite with JSON1 has (no `->`, no `unixepoch()`), and every
 * JSON function sits behind a `json_valid` check in a CASE (which SQLite evaluates lazily): a
 * trigger that raised an error would make the foreign writer's own statement fail.
 *
 * Before-images are kept in typed columns, not as JSON: an older SQLite renders a REAL inside JSON
 * with 15 significant digits, which would not give back the stored double.
 *
 * An update that only records an access (nooa's access ring, counters, strength and `last_accessed`) is the
 * commonest write by far (every recall touches up to k rows), and its full before-image would be
 * the whole row with its 64-entry ring. It is kept compact instead (op `access`): the old counters and
 * strength, the old `last_accessed`/`last_accessed_at`, how many ring entries were appended and the entries
 * that fell off the ring's head (feed-images.ts turns a feed row and the row after it back into the row
 * before). The old ring is the dropped entries followed by the current ring
 * without its last `added` entries. An update that does not fit that shape exactly keeps a full
 * before-image.
 */

import { MEMORY_COLUMNS as ROW_COLUMNS } from '../port/codec.js';

/** Wall-clock seconds in the writer's SQLite (julianday has millisecond precision everywhere). */
const TRIGGER_NOW = "((julianday('now') - 2440587.5) * 86400.0)";

/** The access fields of nooa's `data` JSON; an update that changes only these (and the two columns) is an access. */
export const ACCESS_PATHS = [
  '$.access_log',
  '$.access_count',
  '$.recalled_count',
  '$.searched_count',
  '$.injected_count',
  '$.reinforced_count',
  '$.deref_count',
  '$.last_accessed_at',
  '$.strength',
];

const COUNT_FIELDS = ['strength', 'access_count', 'recalled_count', 'searched_count', 'injected_count', 'reinforced_count', 'deref_count'];

/** The row columns a before-image keeps: the key and the embedding have columns of their own in the feed. */
const MEMORY_COLUMNS = ROW_COLUMNS.filter((c) => c !== 'id' && c !== 'embedding');

/** The before-image columns of the feed, in the order the triggers fill them. */
export const FEED_MEMORY_IMAGE_COLUMNS: readonly string[] = MEMORY_COLUMNS;

const paths = ACCESS_PATHS.map((p) => `'${p}'`).join(', ');

/** Everything but the access fields is the same (columns first: cheap, and no JSON when they differ). */
const SAME_APART_FROM_ACCESS = `
  old.type IS new.type AND old.content IS new.content AND old.importance IS new.importance
  AND old.salience IS new.salience AND old.created_at IS new.created_at
  AND old.archived IS new.archived AND old.owner IS new.owner AND old.status IS new.status
  AND old.embedding IS new.embedding`;

/** The channel counters of nooa's access ring: each logged access bumps exactly one of them and appends one entry. */
const CHANNEL_COUNTERS = ['recalled_count', 'searched_count', 'injected_count', 'reinforced_count', 'deref_count'];

/**
 * Ring arithmetic: k entries appended (the sum of the channel counters' moves: `access_count` alone
 * misses injections, which append without touching it), d = old length + k − new length dropped
 * from the head. A counter missing on either side makes k NULL, and the update keeps a full image.
 */
const RING = `
  SELECT (${CHANNEL_COUNTERS.map((f) => `json_extract(new.data, '$.${f}') - json_extract(old.data, '$.${f}')`).join(' + ')}) AS k,
         json_array_length(old.data, '$.access_log') AS ol,
         json_array_length(new.data, '$.access_log') AS nl`;

/**
 * 1 when the update is an access that the compact form can undo exactly: the columns other than
 * the access ones are equal, the data JSON is equal apart from the access fields, k ≥ 0 entries
 * were appended, every old ring entry is an object (nooa's are; the compact image keeps them as JSON
 * text, exactly) and the old ring from entry d on is, entry for entry, the current ring without its
 * last k entries. That last comparison makes the reconstruction exact by construction, whatever k
 * the counters claim: a wrong k fails it and the update keeps a full image. Entries are compared as
 * their JSON texts joined by U+001F, which valid JSON text never holds unescaped; one scan of each
 * ring does it (an element-wise json() re-parse doubled the trigger's cost).
 */
const IS_ACCESS = `(CASE
  WHEN NOT (${SAME_APART_FROM_ACCESS}) THEN 0
  WHEN NOT (json_valid(old.data) AND json_valid(new.data)) THEN 0
  WHEN json_type(old.data, '$.access_log') IS NOT 'array' OR json_type(new.data, '$.access_log') IS NOT 'array' THEN 0
  WHEN typeof(json_extract(old.data, '$.last_accessed_at')) NOT IN ('real', 'integer', 'null') THEN 0
  WHEN json_remove(old.data, ${paths}) IS NOT json_remove(new.data, ${paths}) THEN 0
  ELSE (SELECT CASE
      WHEN typeof(old.access_count) IS NOT 'integer' OR typeof(new.access_count) IS NOT 'integer' THEN 0
      WHEN typeof(r.k) IS NOT 'integer' THEN 0
      WHEN r.k < 0 OR r.k > r.nl OR r.ol + r.k - r.nl < 0 OR r.ol + r.k - r.nl > r.ol THEN 0
      WHEN (SELECT CASE WHEN sum(type IS NOT 'object') > 0 THEN NULL
                   ELSE coalesce(group_concat(CASE WHEN key >= r.ol + r.k - r.nl THEN value END, char(31)), '') END
            FROM json_each(old.data, '$.access_log'))
        IS (SELECT coalesce(group_concat(value, char(31)), '') FROM json_each(new.data, '$.access_log') WHERE key < r.nl - r.k)
        THEN 1
      ELSE 0 END
    FROM (${RING}) r)
END)`;

/** The compact before-image of an access: counters (integers, exact in JSON), k, and the dropped head. */
const ACCESS_IMAGE = `(SELECT json_object(
    'added', r.k,
    'dropped', (SELECT json_group_array(value) FROM json_each(old.data, '$.access_log') WHERE key < r.ol + r.k - r.nl),
    'counts', json_object(${COUNT_FIELDS.map((f) => `'${f}', json_extract(old.data, '$.${f}')`).join(', ')}))
  FROM (${RING}) r)`;

/** The before-image columns an access row keeps (the rest are NULL: the row after it has them). */
const ACCESS_KEEPS = new Set<string>(['strength', 'last_accessed', 'access_count']);

const FEED_COLUMNS = `at, tbl, op, memory_id, dst, edge_type, ${MEMORY_COLUMNS.join(', ')}, embedding, embedding_kept, weight, access_at`;

const oldImage = (prefix: string) => MEMORY_COLUMNS.map((c) => `${prefix}.${c}`).join(', ');
const nulls = (n: number) => Array.from({ length: n }, () => 'NULL').join(', ');

export const FEED_DDL = `
CREATE TABLE mnemo_feed (
  seq            INTEGER PRIMARY KEY AUTOINCREMENT,
  at             REAL NOT NULL,
  tbl            TEXT NOT NULL,
  op             TEXT NOT NULL,
  memory_id      TEXT NOT NULL,
  dst            TEXT,
  edge_type      TEXT,
  type           TEXT,
  content        TEXT,
  importance     REAL,
  salience       REAL,
  strength       INTEGER,
  created_at     REAL,
  last_accessed  REAL,
  access_count   INTEGER,
  archived       INTEGER,
  owner          TEXT,
  status         TEXT,
  data           TEXT,
  embedding      BLOB,
  embedding_kept INTEGER NOT NULL DEFAULT 0,
  weight         REAL,
  access_at      REAL,
  change_id      INTEGER,
  writer         TEXT
);
CREATE INDEX idx_mnemo_feed_memory ON mnemo_feed(memory_id, seq);
CREATE INDEX idx_mnemo_feed_at ON mnemo_feed(at);

CREATE TRIGGER mnemo_feed_memory_replace BEFORE INSERT ON memories
WHEN EXISTS (SELECT 1 FROM memories WHERE id = new.id)
BEGIN
  INSERT INTO mnemo_feed(${FEED_COLUMNS})
  SELECT ${TRIGGER_NOW}, 'memory', 'replace', m.id, NULL, NULL, ${oldImage('m')}, m.embedding, 1, NULL, NULL
  FROM memories m WHERE m.id = new.id;
END;

CREATE TRIGGER mnemo_feed_memory_insert AFTER INSERT ON memories
BEGIN
  INSERT INTO mnemo_feed(${FEED_COLUMNS})
  VALUES (${TRIGGER_NOW}, 'memory', 'insert', new.id, NULL, NULL, ${nulls(MEMORY_COLUMNS.length)}, NULL, 0, NULL, NULL);
END;

CREATE TRIGGER mnemo_feed_memory_update AFTER UPDATE ON memories
WHEN old.id IS new.id AND NOT (${SAME_APART_FROM_ACCESS}
  AND old.strength IS new.strength AND old.last_accessed IS new.last_accessed AND old.access_count IS new.access_count
  AND old.data IS new.data)
BEGIN
  INSERT INTO mnemo_feed(${FEED_COLUMNS})
  SELECT ${TRIGGER_NOW}, 'memory', CASE WHEN a.compact THEN 'access' ELSE 'update' END, old.id, NULL, NULL,
    ${MEMORY_COLUMNS.map((c) => (ACCESS_KEEPS.has(c) ? `old.${c}` : c === 'data' ? `CASE WHEN a.compact THEN ${ACCESS_IMAGE} ELSE old.data END` : `CASE WHEN a.compact THEN NULL ELSE old.${c} END`)).join(', ')},
    CASE WHEN NOT a.compact AND old.embedding IS NOT new.embedding THEN old.embedding END,
    NOT a.compact AND old.embedding IS NOT new.embedding, NULL,
    CASE WHEN a.compact AND typeof(json_extract(old.data, '$.last_accessed_at')) IN ('real', 'integer') THEN json_extract(old.data, '$.last_accessed_at') END
  FROM (SELECT coalesce(${IS_ACCESS}, 0) = 1 AS compact) a;
END;

CREATE TRIGGER mnemo_feed_memory_rekey AFTER UPDATE OF id ON memories
WHEN old.id IS NOT new.id
BEGIN
  INSERT INTO mnemo_feed(${FEED_COLUMNS})
  VALUES (${TRIGGER_NOW}, 'memory', 'delete', old.id, NULL, NULL, ${oldImage('old')}, old.embedding, 1, NULL, NULL);
  INSERT INTO mnemo_feed(${FEED_COLUMNS})
  VALUES (${TRIGGER_NOW}, 'memory', 'insert', new.id, NULL, NULL, ${nulls(MEMORY_COLUMNS.length)}, NULL, 0, NULL, NULL);
END;

CREATE TRIGGER mnemo_feed_memory_delete AFTER DELETE ON memories
BEGIN
  INSERT INTO mnemo_feed(${FEED_COLUMNS})
  VALUES (${TRIGGER_NOW}, 'memory', 'delete', old.id, NULL, NULL, ${oldImage('old')}, old.embedding, 1, NULL, NULL);
END;

CREATE TRIGGER mnemo_feed_edge_replace BEFORE INSERT ON memory_edges
WHEN EXISTS (SELECT 1 FROM memory_edges WHERE src = new.src AND dst = new.dst AND type = new.type)
BEGIN
  INSERT INTO mnemo_feed(${FEED_COLUMNS})
  SELECT ${TRIGGER_NOW}, 'edge', 'replace', e.src, e.dst, e.type, ${nulls(5)}, e.created_at, ${nulls(6)}, NULL, 0, e.weight, NULL
  FROM memory_edges e WHERE e.src = new.src AND e.dst = new.dst AND e.type = new.type;
END;

CREATE TRIGGER mnemo_feed_edge_insert AFTER INSERT ON memory_edges
BEGIN
  INSERT INTO mnemo_feed(${FEED_COLUMNS})
  VALUES (${TRIGGER_NOW}, 'edge', 'insert', new.src, new.dst, new.type, ${nulls(MEMORY_COLUMNS.length)}, NULL, 0, NULL, NULL);
END;

CREATE TRIGGER mnemo_feed_edge_update AFTER UPDATE ON memory_edges
WHEN old.src IS NOT new.src OR old.dst IS NOT new.dst OR old.type IS NOT new.type
  OR old.weight IS NOT new.weight OR old.created_at IS NOT new.created_at
BEGIN
  INSERT INTO mnemo_feed(${FEED_COLUMNS})
  VALUES (${TRIGGER_NOW}, 'edge', CASE WHEN old.src IS new.src AND old.dst IS new.dst AND old.type IS new.type THEN 'update' ELSE 'delete' END,
    old.src, old.dst, old.type, ${nulls(5)}, old.created_at, ${nulls(6)}, NULL, 0, old.weight, NULL);
  INSERT INTO mnemo_feed(${FEED_COLUMNS})
  SELECT ${TRIGGER_NOW}, 'edge', 'insert', new.src, new.dst, new.type, ${nulls(MEMORY_COLUMNS.length)}, NULL, 0, NULL, NULL
  WHERE NOT (old.src IS new.src AND old.dst IS new.dst AND old.type IS new.type);
END;

CREATE TRIGGER mnemo_feed_edge_delete AFTER DELETE ON memory_edges
BEGIN
  INSERT INTO mnemo_feed(${FEED_COLUMNS})
  VALUES (${TRIGGER_NOW}, 'edge', 'delete', old.src, old.dst, old.type, ${nulls(5)}, old.created_at, ${nulls(6)}, NULL, 0, old.weight, NULL);
END;
`;

/** The triggers' names, so a test (and a future uninstall) can list exactly what the feed adds to nooa's tables. */
export const FEED_TRIGGERS = [
  'mnemo_feed_memory_replace',
  'mnemo_feed_memory_insert',
  'mnemo_feed_memory_update',
  'mnemo_feed_memory_rekey',
  'mnemo_feed_memory_delete',
  'mnemo_feed_edge_replace',
  'mnemo_feed_edge_insert',
  'mnemo_feed_edge_update',
  'mnemo_feed_edge_delete',
] as const;
