/**
 * The change feed of a PostgreSQL store: a table `mnemo_pg_feed` that triggers on `memories` and
 * `memory_edges` fill, whichever connection writes. A reader catches up by reading the rows of the
 * transactions that ended since its position (pg-feed.ts).
 *
 * It is not SQLite's `mnemo_feed` (which the schema also holds, as `mnemo copy` carries it): that
 * one is read by sequence number and keeps before-images for time travel. PostgreSQL's commits do
 * not come in sequence order (a transaction that began first may commit last), so this feed records
 * each row's writing transaction (`xid`, pg_current_xact_id()) and is read by transaction id below
 * a snapshot's xmin (every transaction under it has ended).
 *
 * Since the feed keeps before-images (time travel, pg-history-*.ts), a row of an update or a delete
 * carries the old row in `old_*` columns, typed as the store's own (doubles bit for bit); an insert
 * needs none. An `access` (an update of the access fields only, which the trigger checks) keeps
 * what an access changes: the three columns and the whole old `data` (the rest, embedding included,
 * is the row after it's); an update that kept the embedding does not copy it. A feed made before
 * the images gains the columns when a writable open brings it up to date; its older rows have a
 * NULL `embedding_kept`, and history starts at that upgrade (the `feed_images_from` fact).
 *
 * Each row also records:
 * - `at`: the writer's injected clock when it set `mnemo.now` for the transaction, else the server's;
 * - `change_id`: the journalled change the write belongs to (`mnemo.change_id`, set as the journal
 *   attributes rows to a change, transaction-local);
 * - `writer_token`: the writing connection's token (`mnemo.writer`, set at connect), so a connection
 *   can leave out its own rows: it told its listeners of them as it wrote them;
 * - `owner`: the memory's owner (an edge's: its source's), for the agents' row-level security.
 *
 * The trigger functions are SECURITY DEFINER: an agent's role (pg-grant.ts) may write memories
 * but not the feed, and its writes must still be logged.
 */
import { ACCESS_PATHS, FEED_MEMORY_IMAGE_COLUMNS } from '../sqlite/feed-ddl.js';
import { PG_STORE_TABLE } from './pg-schema.js';
import { ident } from './pg-url.js';
import { pgFeedNotifyDdl } from './pg-feed-notify-ddl.js';

export const PG_FEED_TABLE = 'mnemo_pg_feed';

/**
 * The level of the statements below, kept as the store fact `feed_ddl_level`: a writable open of a
 * store whose feed is older runs them again (each replaces, or is skipped). 1: the feed (no fact);
 * 2: the commit notification (pg-feed-notify-ddl.ts); 3: before-images for time travel; 4: edge
 * inserts and deletes logged once per statement.
 */
export const PG_FEED_DDL_LEVEL = 4;
export const PG_FEED_DDL_LEVEL_FACT = 'feed_ddl_level';

/** The store fact naming this feed: a position from another feed (another store, or SQLite's) is not read against it. */
export const PG_FEED_EPOCH_FACT = 'feed_epoch';

/** A setting the trigger reads: unset (or reset to '') is null. */
const setting = (name: string) => `nullif(current_setting('${name}', true), '')`;

/** The keys of nooa's `data` JSON an access changes (SQLite's feed lists them as JSON paths). */
const ACCESS_KEYS = ACCESS_PATHS.map((p) => `'${p.slice(2)}'`).join(', ');

/** The columns other than the access ones: equal on both sides of an access. */
const NON_ACCESS_COLUMNS = ['type', 'content', 'importance', 'salience', 'created_at', 'archived', 'owner', 'status', 'embedding'];

/** The memory columns a before-image keeps (the key and the embedding have columns of their own). */
const IMAGE_COLUMNS = FEED_MEMORY_IMAGE_COLUMNS;

/** The before-image columns' types, as the store's `memories` has them (pg-schema.ts). */
const IMAGE_TYPES: Record<string, string> = {
  type: 'text',
  content: 'text',
  importance: 'double precision',
  salience: 'double precision',
  strength: 'bigint',
  created_at: 'double precision',
  last_accessed: 'double precision',
  access_count: 'bigint',
  archived: 'bigint',
  owner: 'text',
  status: 'text',
  data: 'text',
};

/** What an access changes: the only columns an `access` row keeps (the rest are the row after it's). */
const ACCESS_KEEPS = ['strength', 'last_accessed', 'access_count', 'data'];

/** The store fact that says from which instant the feed keeps before-images: where time travel starts. */
export const PG_FEED_IMAGES_FACT = 'feed_images_from';

/**
 * Every statement that adds the feed to a store in `schema` (its epoch and `feed_images_from` too);
 * each can run again (it replaces, or is skipped). `imagesFrom` is the store's clock, where the
 * caller has one; otherwise the server's clock (a copy's end) marks where history starts.
 */
export function pgFeedDdl(schema: string, imagesFrom?: number): string[] {
  const s = ident(schema);
  const t = (name: string) => `${s}.${ident(name)}`;
  const feed = t(PG_FEED_TABLE);
  /**
   * One feed row. `image` maps before-image columns (without `old_`) to expressions; `kept` says
   * whether the row's image is whole enough to roll back (NULL only on rows from before images).
   */
  const insertRow = (tbl: string, op: string, id: string, dst: string, owner: string, image: Record<string, string> = {}, edgeType = 'NULL') => {
    const cols = Object.keys(image);
    return `INSERT INTO ${feed}(at, tbl, op, memory_id, dst, edge_type, owner, change_id, writer_token, embedding_kept${cols.map((c) => `, old_${c}`).join('')})
       VALUES (${t('mnemo_pg_feed_now')}(), '${tbl}', ${op}, ${id}, ${dst}, ${edgeType}, ${owner}, ${setting('mnemo.change_id')}::bigint, ${setting('mnemo.writer')}, ${image['embedding'] !== undefined ? 'TRUE' : 'FALSE'}${cols.map((c) => `, ${image[c]}`).join('')});`;
  };
  // The old rowid too: a row deleted since is shown at its place in nooa's iteration order.
  const whole = (rec: string): Record<string, string> => Object.fromEntries([...IMAGE_COLUMNS, 'embedding', 'rowid'].map((c) => [c, `${rec}.${c}`]));
  const edgeImage = (rec: string) => ({ weight: `${rec}.weight`, created_at: `${rec}.created_at`, rowid: `${rec}.rowid` });
  const srcOwner = (src: string) => `(SELECT m.owner FROM ${t('memories')} m WHERE m.id = ${src})`;
  /**
   * The feed rows of one statement's inserted or deleted edges, from its transition table, in rowid
   * order (the order a row trigger fired in for an insert; a delete's rows are independent). A row
   * trigger ran a PL/pgSQL INSERT and an owner lookup per edge, and a memory's edge list is written
   * whole (deleted, then inserted again, as nooa's save does): most of the server's work in a
   * reflection apply. The columns and values are the row trigger's.
   */
  const edgeRowsOf = (rows: string, op: 'insert' | 'delete') => {
    const image = op === 'delete' ? ', old_weight, old_created_at, old_rowid' : '';
    return `INSERT INTO ${feed}(at, tbl, op, memory_id, dst, edge_type, owner, change_id, writer_token, embedding_kept${image})
       SELECT ${t('mnemo_pg_feed_now')}(), 'edge', '${op}', r.src, r.dst, r.type, ${srcOwner('r.src')}, ${setting('mnemo.change_id')}::bigint, ${setting('mnemo.writer')}, FALSE${op === 'delete' ? ', r.weight, r.created_at, r.rowid' : ''}
       FROM ${rows} r ORDER BY r.rowid;`;
  };
  const isAccess = `${NON_ACCESS_COLUMNS.map((c) => `OLD.${c} IS NOT DISTINCT FROM NEW.${c}`).join(' AND ')} AND ${t('mnemo_pg_feed_same_apart_from_access')}(OLD.data, NEW.data)`;
  return [
    `CREATE TABLE IF NOT EXISTS ${feed} (
       seq          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
       xid          xid8 NOT NULL DEFAULT pg_current_xact_id(),
       at           double precision NOT NULL,
       tbl          text COLLATE "C" NOT NULL,
       op           text COLLATE "C" NOT NULL,
       memory_id    text COLLATE "C" NOT NULL,
       dst          text COLLATE "C",
       owner        text COLLATE "C",
       change_id    bigint,
       writer_token text COLLATE "C"
     )`,
    // The before-images (time travel, pg-history-*.ts): NULL `embedding_kept` marks a row written before them.
    `ALTER TABLE ${feed} ADD COLUMN IF NOT EXISTS edge_type text COLLATE "C", ADD COLUMN IF NOT EXISTS embedding_kept boolean,
       ${IMAGE_COLUMNS.map((c) => `ADD COLUMN IF NOT EXISTS old_${c} ${IMAGE_TYPES[c]}${IMAGE_TYPES[c] === 'text' ? ' COLLATE "C"' : ''}`).join(', ')},
       ADD COLUMN IF NOT EXISTS old_embedding bytea, ADD COLUMN IF NOT EXISTS old_weight double precision, ADD COLUMN IF NOT EXISTS old_rowid bigint`,
    // Catch-up reads a range of transaction ids; retention walks `seq`, the primary key; an instant finds the changes stamped after it by `at`.
    `CREATE INDEX IF NOT EXISTS mnemo_pg_feed_xid ON ${feed} (xid)`,
    `CREATE INDEX IF NOT EXISTS mnemo_pg_feed_at ON ${feed} (at)`,
    `CREATE OR REPLACE FUNCTION ${t('mnemo_pg_feed_now')}() RETURNS double precision LANGUAGE sql STABLE
       AS $$ SELECT coalesce(${setting('mnemo.now')}::double precision, extract(epoch FROM clock_timestamp())::double precision) $$`,
    // A `data` that is not JSON (a foreign writer's) makes the update a plain one, never an error in the writer's statement.
    `CREATE OR REPLACE FUNCTION ${t('mnemo_pg_feed_same_apart_from_access')}(a text, b text) RETURNS boolean LANGUAGE plpgsql IMMUTABLE
       AS $$ BEGIN RETURN (a::jsonb - ARRAY[${ACCESS_KEYS}]) = (b::jsonb - ARRAY[${ACCESS_KEYS}]); EXCEPTION WHEN others THEN RETURN false; END $$`,
    // An update that moves a memory to another owner keeps its image on a row of the old owner's
    // (an agent sees the feed rows of its owner only: the new owner must not read the old content),
    // whole with its embedding (the row after it is not the old owner's to see), and tells the new
    // owner on a row of its own, op `owner`, that carries nothing.
    `CREATE OR REPLACE FUNCTION ${t('mnemo_pg_feed_memory')}() RETURNS trigger LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
     BEGIN
       IF TG_OP = 'INSERT' THEN
         ${insertRow('memory', "'insert'", 'NEW.id', 'NULL', 'NEW.owner')}
       ELSIF TG_OP = 'DELETE' THEN
         ${insertRow('memory', "'delete'", 'OLD.id', 'NULL', 'OLD.owner', whole('OLD'))}
       ELSIF OLD.id IS DISTINCT FROM NEW.id THEN
         ${insertRow('memory', "'delete'", 'OLD.id', 'NULL', 'OLD.owner', whole('OLD'))}
         ${insertRow('memory', "'insert'", 'NEW.id', 'NULL', 'NEW.owner')}
       ELSIF OLD.owner IS DISTINCT FROM NEW.owner THEN
         ${insertRow('memory', "'update'", 'OLD.id', 'NULL', 'OLD.owner', whole('OLD'))}
         ${insertRow('memory', "'owner'", 'NEW.id', 'NULL', 'NEW.owner')}
       ELSIF ${isAccess} THEN
         ${insertRow('memory', "'access'", 'NEW.id', 'NULL', 'NEW.owner', Object.fromEntries([...ACCESS_KEEPS, 'rowid'].map((c) => [c, `OLD.${c}`])))}
       ELSIF OLD.embedding IS NOT DISTINCT FROM NEW.embedding THEN
         ${insertRow('memory', "'update'", 'NEW.id', 'NULL', 'NEW.owner', Object.fromEntries([...IMAGE_COLUMNS, 'rowid'].map((c) => [c, `OLD.${c}`])))}
       ELSE
         ${insertRow('memory', "'update'", 'NEW.id', 'NULL', 'NEW.owner', whole('OLD'))}
       END IF;
       RETURN NULL;
     END $$`,
    `CREATE OR REPLACE FUNCTION ${t('mnemo_pg_feed_edge')}() RETURNS trigger LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
     BEGIN
       IF OLD.src IS NOT DISTINCT FROM NEW.src AND OLD.dst IS NOT DISTINCT FROM NEW.dst AND OLD.type IS NOT DISTINCT FROM NEW.type THEN
         ${insertRow('edge', "'update'", 'NEW.src', 'NEW.dst', srcOwner('NEW.src'), edgeImage('OLD'), 'NEW.type')}
       ELSE
         ${insertRow('edge', "'delete'", 'OLD.src', 'OLD.dst', srcOwner('OLD.src'), edgeImage('OLD'), 'OLD.type')}
         ${insertRow('edge', "'insert'", 'NEW.src', 'NEW.dst', srcOwner('NEW.src'), {}, 'NEW.type')}
       END IF;
       RETURN NULL;
     END $$`,
    `CREATE OR REPLACE TRIGGER mnemo_pg_feed_memory AFTER INSERT OR UPDATE OR DELETE ON ${t('memories')} FOR EACH ROW EXECUTE FUNCTION ${t('mnemo_pg_feed_memory')}()`,
    `INSERT INTO ${t(PG_STORE_TABLE)}(key, value) VALUES ('${PG_FEED_EPOCH_FACT}', gen_random_uuid()::text) ON CONFLICT (key) DO NOTHING`,
    `INSERT INTO ${t(PG_STORE_TABLE)}(key, value) VALUES ('${PG_FEED_DDL_LEVEL_FACT}', '${PG_FEED_DDL_LEVEL}') ON CONFLICT (key) DO UPDATE SET value = excluded.value`,
    `INSERT INTO ${t(PG_STORE_TABLE)}(key, value) VALUES ('${PG_FEED_IMAGES_FACT}', ${imagesFrom !== undefined && Number.isFinite(imagesFrom) ? `'${String(imagesFrom)}'` : `${t('mnemo_pg_feed_now')}()::text`}) ON CONFLICT (key) DO NOTHING`,
    // Updates (an upsert's, a renamed owner's) stay per row; inserts and deletes have the statement triggers below.
    // One transaction replaces the function and the triggers together (pg-feed.ts), so no all-events trigger outlives it.
    `CREATE OR REPLACE TRIGGER mnemo_pg_feed_edge AFTER UPDATE ON ${t('memory_edges')} FOR EACH ROW EXECUTE FUNCTION ${t('mnemo_pg_feed_edge')}()`,
    ...(['insert', 'delete'] as const).flatMap((op) => {
      const rows = op === 'insert' ? 'mnemo_new_edges' : 'mnemo_old_edges';
      const fn = t(`mnemo_pg_feed_edge_${op}s`);
      return [
        `CREATE OR REPLACE FUNCTION ${fn}() RETURNS trigger LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
         BEGIN
           ${edgeRowsOf(rows, op)}
           RETURN NULL;
         END $$`,
        `CREATE OR REPLACE TRIGGER mnemo_pg_feed_edge_${op}s AFTER ${op.toUpperCase()} ON ${t('memory_edges')} REFERENCING ${op === 'insert' ? 'NEW' : 'OLD'} TABLE AS ${rows} FOR EACH STATEMENT EXECUTE FUNCTION ${fn}()`,
      ];
    }),
    ...pgFeedNotifyDdl(schema, PG_FEED_TABLE),
  ];
}
