/**
 * Every write an agent's role makes to `memories`, `memory_edges` and `mnemo_tombstones` is
 * journalled, or it is refused at commit. Row-level security (pg-agent-privileges.ts) keeps an agent
 * inside its scope; this keeps it honest inside it: a shared memory rewritten, re-owned or deleted
 * by raw SQL, an edge of one removed, would otherwise leave no journal entry, and an operator could
 * neither see nor undo it.
 *
 * - A ledger, `mnemo_pg_agent_writes` (closed to agents), holds for each row an agent's transaction
 *   touched (`m:<id>`, `t:<hash>`, as the journal keys them) its image from before the first touch,
 *   made by the server (`mnemo_row_image`: memory-images.ts's shape, edges and embedding included,
 *   whatever the agent may see). BEFORE row triggers write it.
 * - The journal's door (pg-agent-journal-ddl.ts) journals a touched row from the ledger's image to
 *   the row as it stands, never from images the agent hands in; the ledger then starts again from there.
 * - A deferred constraint trigger, AFTER each of those row writes, compares the row at commit with
 *   the ledger: equal, or different only by access bookkeeping in the agent's own name (a recall:
 *   the ring grew by entries whose reader is of the agent's role, each counter by at most one per
 *   entry, nothing else), or by edges to memories deleted since (a journalled delete takes the edges
 *   into it along). Anything else is refused (42501), naming the row; the transaction rolls back.
 *   An agent that makes the check immediate (SET CONSTRAINTS) only has it run after each statement:
 *   its own journalled writes then fail, nobody else's rows change.
 *
 * The triggers fire for sessions whose login role is not a member of the tables' owner
 * (superusers are members of every role), and do nothing unless that role is an agent's
 * (`mnemo_pg_agents`): the owner's sessions, where operators work, pay one catalog lookup per row.
 */
import { ACCESS_LOG_CAP } from '../../model/enums.js';
import { ACCESS_PATHS } from '../sqlite/feed-ddl.js';
import { AGENT_WRITES_TABLE, AGENTS_TABLE } from './pg-agent-privileges.js';

/** The keys of nooa's `data` an access changes (its ring, counters, time and strength). */
const ACCESS_KEYS = ACCESS_PATHS.map((p) => p.slice(2));
/** Of those, the counters: each grows by at most one per ring entry an access adds. */
const COUNTERS = ACCESS_KEYS.filter((k) => k !== 'access_log' && k !== 'last_accessed_at');

/** PL/pgSQL calling `fn` with the journal key of the row a trigger fired for (old and new, for a move): `m:<id>` for a memory or its edges, `t:<hash>` for a tombstone. */
function forEachKey(fn: string): string {
  const branch = (prefix: string, column: string) => `IF TG_OP <> 'INSERT' THEN PERFORM ${fn}('${prefix}:' || OLD.${column}); END IF;
         IF TG_OP <> 'DELETE' THEN PERFORM ${fn}('${prefix}:' || NEW.${column}); END IF;`;
  return `IF TG_TABLE_NAME = 'memories' THEN
         ${branch('m', 'id')}
       ELSIF TG_TABLE_NAME = 'memory_edges' THEN
         ${branch('m', 'src')}
       ELSE
         ${branch('t', 'hash')}
       END IF;`;
}

const textArray = (items: readonly string[]) => `ARRAY[${items.map((s) => `'${s}'`).join(', ')}]::text[]`;

/** The statements that make the ledger, its triggers and the image functions; `ownerOid` is the tables' owner's role. */
export function agentWritesDdl(t: (name: string) => string, ownerOid: number): string[] {
  const ledger = t(AGENT_WRITES_TABLE);
  const definer = 'SECURITY DEFINER SET search_path = pg_catalog, pg_temp';
  const notOwner = `NOT pg_has_role(session_user, ${Math.trunc(ownerOid)}::oid, 'MEMBER')`;
  const agentSession = `EXISTS (SELECT 1 FROM ${t(AGENTS_TABLE)} a WHERE a.db_role = session_user)`;
  const role = `(SELECT split_part(a.owner, '@', 1) FROM ${t(AGENTS_TABLE)} a WHERE a.db_role = session_user)`;
  const stripUsage = (v: string) => `(${v} #- '{row,strength}' #- '{row,last_accessed}' #- '{row,access_count}' #- '{row,data}')`;
  return [
    `CREATE UNLOGGED TABLE IF NOT EXISTS ${ledger} (
       xid      xid8 NOT NULL,
       key      text COLLATE "C" NOT NULL,
       baseline text,
       db_role  text NOT NULL,
       PRIMARY KEY (xid, key)
     )`,
    // A memory as the journal keeps it (memory-images.ts): the rowid, every column but the embedding in nooa's order, the embedding as base64, the outgoing edges in rowid order.
    `CREATE OR REPLACE FUNCTION ${t('mnemo_memory_image')}(p_id text) RETURNS text LANGUAGE sql STABLE ${definer} AS $$
       SELECT json_build_object(
         'rowid', m.rowid,
         'row', json_build_object('id', m.id, 'type', m.type, 'content', m.content, 'importance', m.importance, 'salience', m.salience, 'strength', m.strength,
                                  'created_at', m.created_at, 'last_accessed', m.last_accessed, 'access_count', m.access_count, 'archived', m.archived,
                                  'owner', m.owner, 'status', m.status, 'data', m.data),
         'embedding', translate(encode(m.embedding, 'base64'), E'\\n', ''),
         'edges', coalesce((SELECT json_agg(json_build_object('dst', e.dst, 'type', e.type, 'weight', e.weight, 'created_at', e.created_at) ORDER BY e.rowid)
                            FROM ${t('memory_edges')} e WHERE e.src = m.id), '[]'::json))::text
       FROM ${t('memories')} m WHERE m.id = p_id $$`,
    `CREATE OR REPLACE FUNCTION ${t('mnemo_row_image')}(p_key text) RETURNS text LANGUAGE sql STABLE ${definer} AS $$
       SELECT CASE split_part(p_key, ':', 1)
         WHEN 'm' THEN ${t('mnemo_memory_image')}(substr(p_key, 3))
         WHEN 't' THEN (SELECT json_build_object('hash', x.hash, 'memory_id', x.memory_id, 'owner', x.owner, 'ts', x.ts, 'head', x.head)::text
                        FROM ${t('mnemo_tombstones')} x WHERE x.hash = substr(p_key, 3))
       END $$`,
    // The entries of a jsonb array from position `p_from` (0-based) on, `p_count` of them.
    `CREATE OR REPLACE FUNCTION ${t('mnemo_jsonb_slice')}(p_arr jsonb, p_from int, p_count int) RETURNS jsonb LANGUAGE sql IMMUTABLE AS $$
       SELECT coalesce(jsonb_agg(e ORDER BY o), '[]'::jsonb) FROM jsonb_array_elements(p_arr) WITH ORDINALITY x(e, o) WHERE o > p_from AND o <= p_from + p_count $$`,
    // Whether the row now differs from the ledger's image only by access bookkeeping in role r's name, or by edges to memories that are gone.
    // The ring may only have grown at its end by entries of the role's readers, losing from its front
    // no more than its cap (${ACCESS_LOG_CAP}) makes it; each counter grows by at most one per entry added.
    `CREATE OR REPLACE FUNCTION ${t('mnemo_access_drift_ok')}(p_base text, p_now text, r text) RETURNS boolean LANGUAGE plpgsql STABLE ${definer} AS $$
     DECLARE
       b jsonb; c jsonb; bd jsonb; cd jsonb; bl jsonb; cl jsonb; added jsonb; lb int; lc int; n int := -1; k text;
     BEGIN
       IF p_base IS NULL OR p_now IS NULL OR r IS NULL THEN RETURN false; END IF;
       b := p_base::jsonb; c := p_now::jsonb;
       b := jsonb_set(b, '{edges}', coalesce((SELECT jsonb_agg(e ORDER BY o) FROM jsonb_array_elements(b -> 'edges') WITH ORDINALITY x(e, o)
                                               WHERE EXISTS (SELECT 1 FROM ${t('memories')} m WHERE m.id = e ->> 'dst')), '[]'::jsonb));
       IF ${stripUsage('b')} IS DISTINCT FROM ${stripUsage('c')} THEN RETURN false; END IF;
       bd := (b -> 'row' ->> 'data')::jsonb; cd := (c -> 'row' ->> 'data')::jsonb;
       IF (bd - ${textArray(ACCESS_KEYS)}) IS DISTINCT FROM (cd - ${textArray(ACCESS_KEYS)}) THEN RETURN false; END IF;
       bl := coalesce(bd -> 'access_log', '[]'::jsonb); cl := coalesce(cd -> 'access_log', '[]'::jsonb);
       lb := jsonb_array_length(bl); lc := jsonb_array_length(cl);
       -- The fewest entries added that make the ring the old one's end followed by them.
       FOR a IN GREATEST(0, lc - lb) .. lc LOOP
         CONTINUE WHEN lc < ${ACCESS_LOG_CAP} AND a <> lc - lb;
         IF ${t('mnemo_jsonb_slice')}(cl, 0, lc - a) = ${t('mnemo_jsonb_slice')}(bl, lb - (lc - a), lc - a) THEN n := a; EXIT; END IF;
       END LOOP;
       IF n < 0 THEN RETURN false; END IF;
       added := ${t('mnemo_jsonb_slice')}(cl, lc - n, n);
       IF EXISTS (SELECT 1 FROM jsonb_array_elements(added) e WHERE NOT ${t('mnemo_owner_in_role')}(e ->> 'reader_owner', r)) THEN RETURN false; END IF;
       FOREACH k IN ARRAY ${textArray(COUNTERS)} LOOP
         IF coalesce((cd ->> k)::numeric, 0) - coalesce((bd ->> k)::numeric, 0) NOT BETWEEN 0 AND n THEN RETURN false; END IF;
       END LOOP;
       FOREACH k IN ARRAY ARRAY['strength', 'access_count'] LOOP
         IF (c -> 'row' ->> k)::numeric - (b -> 'row' ->> k)::numeric NOT BETWEEN 0 AND n THEN RETURN false; END IF;
       END LOOP;
       IF (c -> 'row' -> 'last_accessed') IS DISTINCT FROM (b -> 'row' -> 'last_accessed')
          AND NOT EXISTS (SELECT 1 FROM jsonb_array_elements(added) e WHERE (e -> 'ts') = (c -> 'row' -> 'last_accessed')) THEN
         RETURN false;
       END IF;
       RETURN true;
     EXCEPTION WHEN others THEN
       -- A value that is not JSON, a counter that is not a number: not bookkeeping.
       RETURN false;
     END $$`,
    `CREATE OR REPLACE FUNCTION ${t('mnemo_agent_touch')}(p_key text) RETURNS void LANGUAGE plpgsql ${definer} AS $$
     BEGIN
       IF NOT EXISTS (SELECT 1 FROM ${ledger} w WHERE w.xid = pg_current_xact_id() AND w.key = p_key) THEN
         INSERT INTO ${ledger}(xid, key, baseline, db_role) VALUES (pg_current_xact_id(), p_key, ${t('mnemo_row_image')}(p_key), session_user);
       END IF;
     END $$`,
    `CREATE OR REPLACE FUNCTION ${t('mnemo_agent_verify_key')}(p_key text) RETURNS void LANGUAGE plpgsql ${definer} AS $$
     DECLARE
       v_base text; v_now text;
     BEGIN
       SELECT w.baseline INTO v_base FROM ${ledger} w WHERE w.xid = pg_current_xact_id() AND w.key = p_key;
       -- Checked already by an earlier event of this commit (the row is gone from the ledger then).
       IF NOT FOUND THEN RETURN; END IF;
       v_now := ${t('mnemo_row_image')}(p_key);
       IF v_now IS DISTINCT FROM v_base AND NOT (split_part(p_key, ':', 1) = 'm' AND ${t('mnemo_access_drift_ok')}(v_base, v_now, ${role})) THEN
         RAISE EXCEPTION 'mnemo: % was changed by the agent role % with no journal entry; an agent changes rows only through the engine, which journals each change', p_key, session_user
           USING ERRCODE = '42501';
       END IF;
       -- A later write of the row in this transaction starts the ledger again from here.
       DELETE FROM ${ledger} w WHERE w.xid = pg_current_xact_id() AND w.key = p_key;
     END $$`,
    `CREATE OR REPLACE FUNCTION ${t('mnemo_agent_touch_row')}() RETURNS trigger LANGUAGE plpgsql ${definer} AS $$
     BEGIN
       IF NOT ${agentSession} THEN RETURN CASE WHEN TG_OP = 'DELETE' THEN OLD ELSE NEW END; END IF;
       ${forEachKey(t('mnemo_agent_touch'))}
       RETURN CASE WHEN TG_OP = 'DELETE' THEN OLD ELSE NEW END;
     END $$`,
    `CREATE OR REPLACE FUNCTION ${t('mnemo_agent_verify_row')}() RETURNS trigger LANGUAGE plpgsql ${definer} AS $$
     BEGIN
       IF NOT ${agentSession} THEN RETURN NULL; END IF;
       ${forEachKey(t('mnemo_agent_verify_key'))}
       RETURN NULL;
     END $$`,
    // Called by the triggers and the journal's door only: an image shows any owner's memory.
    ...['mnemo_memory_image', 'mnemo_row_image', 'mnemo_access_drift_ok', 'mnemo_agent_touch', 'mnemo_agent_verify_key'].map((name) => `REVOKE ALL ON FUNCTION ${t(name)} FROM PUBLIC`),
    ...['memories', 'memory_edges', 'mnemo_tombstones'].flatMap((table) => [
      `CREATE OR REPLACE TRIGGER mnemo_agent_touch BEFORE INSERT OR UPDATE OR DELETE ON ${t(table)} FOR EACH ROW WHEN (${notOwner}) EXECUTE FUNCTION ${t('mnemo_agent_touch_row')}()`,
      `DROP TRIGGER IF EXISTS mnemo_agent_verify ON ${t(table)}`,
      `CREATE CONSTRAINT TRIGGER mnemo_agent_verify AFTER INSERT OR UPDATE OR DELETE ON ${t(table)} DEFERRABLE INITIALLY DEFERRED FOR EACH ROW WHEN (${notOwner}) EXECUTE FUNCTION ${t('mnemo_agent_verify_row')}()`,
    ]),
  ];
}
