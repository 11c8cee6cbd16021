/**
 * The change feed of a PostgreSQL store: a table `mnemo_pg_feed` that triggers on `memories` and
 * `memory_edges` fill, whichever connection writes. A reader catches up by reading the rows of the
 * transactions that ended since its position (pg-feed.ts).
 *
 * It is not SQLite's `mnemo_feed` (which the schema also holds, as `mnemo copy` carries it): that
 * one is read by sequence number and keeps before-images for time travel. PostgreSQL's commits do
 * not come in sequence order (a transaction that began first may commit last), so this feed records
 * each row's writing transaction (`xid`, pg_current_xact_id()) and is read by transaction id below
 * a snapshot's xmin (every transaction under it has ended). It keeps no before-images: time travel
 * is not offered on PostgreSQL.
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
import { ACCESS_PATHS } from '../feed-ddl.js';
import { PG_STORE_TABLE } from './pg-schema.js';
import { ident } from './pg-url.js';
import { pgFeedNotifyDdl } from './pg-feed-notify-ddl.js';

export const PG_FEED_TABLE = 'mnemo_pg_feed';

/**
 * The level of the statements below, kept as the store fact `feed_ddl_level`: a writable open of a
 * store whose feed is older runs them again (each replaces, or is skipped). 2: the commit
 * notification (pg-feed-notify-ddl.ts).
 */
export const PG_FEED_DDL_LEVEL = 2;
export const PG_FEED_DDL_LEVEL_FACT = 'feed_ddl_level';

/** The store fact naming this feed: a position from another feed (another store, or SQLite's) is not read against it. */
export const PG_FEED_EPOCH_FACT = 'feed_epoch';

/** A setting the trigger reads: unset (or reset to '') is null. */
const setting = (name: string) => `nullif(current_setting('${name}', true), '')`;

/** The keys of nooa's `data` JSON an access changes (SQLite's feed lists them as JSON paths). */
const ACCESS_KEYS = ACCESS_PATHS.map((p) => `'${p.slice(2)}'`).join(', ');

/** The columns other than the access ones: equal on both sides of an access. */
const NON_ACCESS_COLUMNS = ['type', 'content', 'importance', 'salience', 'created_at', 'archived', 'owner', 'status', 'embedding'];

/** Every statement that adds the feed to a store in `schema` (its epoch too); each can run again (it replaces, or is skipped). */
export function pgFeedDdl(schema: string): string[] {
  const s = ident(schema);
  const t = (name: string) => `${s}.${ident(name)}`;
  const feed = t(PG_FEED_TABLE);
  const insertRow = (tbl: string, op: string, id: string, dst: string, owner: string) =>
    `INSERT INTO ${feed}(at, tbl, op, memory_id, dst, owner, change_id, writer_token)
       VALUES (${t('mnemo_pg_feed_now')}(), '${tbl}', ${op}, ${id}, ${dst}, ${owner}, ${setting('mnemo.change_id')}::bigint, ${setting('mnemo.writer')});`;
  const srcOwner = (src: string) => `(SELECT m.owner FROM ${t('memories')} m WHERE m.id = ${src})`;
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
    // Catch-up reads a range of transaction ids; retention walks `seq`, the primary key.
    `CREATE INDEX IF NOT EXISTS mnemo_pg_feed_xid ON ${feed} (xid)`,
    `CREATE OR REPLACE FUNCTION ${t('mnemo_pg_feed_now')}() RETURNS double precision LANGUAGE sql STABLE
       AS $$ SELECT coalesce(${setting('mnemo.now')}::double precision, extract(epoch FROM clock_timestamp())::double precision) $$`,
    // A `data` that is not JSON (a foreign writer's) makes the update a plain one, never an error in the writer's statement.
    `CREATE OR REPLACE FUNCTION ${t('mnemo_pg_feed_same_apart_from_access')}(a text, b text) RETURNS boolean LANGUAGE plpgsql IMMUTABLE
       AS $$ BEGIN RETURN (a::jsonb - ARRAY[${ACCESS_KEYS}]) = (b::jsonb - ARRAY[${ACCESS_KEYS}]); EXCEPTION WHEN others THEN RETURN false; END $$`,
    `CREATE OR REPLACE FUNCTION ${t('mnemo_pg_feed_memory')}() RETURNS trigger LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
     BEGIN
       IF TG_OP = 'INSERT' THEN
         ${insertRow('memory', "'insert'", 'NEW.id', 'NULL', 'NEW.owner')}
       ELSIF TG_OP = 'DELETE' THEN
         ${insertRow('memory', "'delete'", 'OLD.id', 'NULL', 'OLD.owner')}
       ELSE
         IF OLD.id IS DISTINCT FROM NEW.id THEN
           ${insertRow('memory', "'delete'", 'OLD.id', 'NULL', 'OLD.owner')}
         END IF;
         ${insertRow(
           'memory',
           `CASE WHEN ${NON_ACCESS_COLUMNS.map((c) => `OLD.${c} IS NOT DISTINCT FROM NEW.${c}`).join(' AND ')}
                  AND ${t('mnemo_pg_feed_same_apart_from_access')}(OLD.data, NEW.data) THEN 'access' ELSE 'update' END`,
           'NEW.id',
           'NULL',
           'NEW.owner',
         )}
       END IF;
       RETURN NULL;
     END $$`,
    `CREATE OR REPLACE FUNCTION ${t('mnemo_pg_feed_edge')}() RETURNS trigger LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
     BEGIN
       IF TG_OP = 'INSERT' THEN
         ${insertRow('edge', "'insert'", 'NEW.src', 'NEW.dst', srcOwner('NEW.src'))}
       ELSIF TG_OP = 'DELETE' THEN
         ${insertRow('edge', "'delete'", 'OLD.src', 'OLD.dst', srcOwner('OLD.src'))}
       ELSIF OLD.src IS NOT DISTINCT FROM NEW.src AND OLD.dst IS NOT DISTINCT FROM NEW.dst AND OLD.type IS NOT DISTINCT FROM NEW.type THEN
         ${insertRow('edge', "'update'", 'NEW.src', 'NEW.dst', srcOwner('NEW.src'))}
       ELSE
         ${insertRow('edge', "'delete'", 'OLD.src', 'OLD.dst', srcOwner('OLD.src'))}
         ${insertRow('edge', "'insert'", 'NEW.src', 'NEW.dst', srcOwner('NEW.src'))}
       END IF;
       RETURN NULL;
     END $$`,
    `CREATE OR REPLACE TRIGGER mnemo_pg_feed_memory AFTER INSERT OR UPDATE OR DELETE ON ${t('memories')} FOR EACH ROW EXECUTE FUNCTION ${t('mnemo_pg_feed_memory')}()`,
    `INSERT INTO ${t(PG_STORE_TABLE)}(key, value) VALUES ('${PG_FEED_EPOCH_FACT}', gen_random_uuid()::text) ON CONFLICT (key) DO NOTHING`,
    `INSERT INTO ${t(PG_STORE_TABLE)}(key, value) VALUES ('${PG_FEED_DDL_LEVEL_FACT}', '${PG_FEED_DDL_LEVEL}') ON CONFLICT (key) DO UPDATE SET value = excluded.value`,
    `CREATE OR REPLACE TRIGGER mnemo_pg_feed_edge AFTER INSERT OR UPDATE OR DELETE ON ${t('memory_edges')} FOR EACH ROW EXECUTE FUNCTION ${t('mnemo_pg_feed_edge')}()`,
    ...pgFeedNotifyDdl(schema, PG_FEED_TABLE),
  ];
}
