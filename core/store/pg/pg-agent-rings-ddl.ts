/**
 * What an agent's database role reads of nooa's access ring (`access_log` inside a memory's `data`):
 * each entry's time and channel, nothing of who read, in which session, with which query, score,
 * rank or components.
 *
 * A shared memory's ring is every reader's: its last 64 accesses, each with the reader, the
 * session, the query (`query[:200]`), the score, the rank and the score's components. The access
 * events table hides another reader's events from an agent (row-level security on the reader); the
 * ring is a copy of the same events inside a row the agent may read, so it is hidden too. Recall
 * still needs the time and channel of every entry, whoever read: nooa's base-level recency sums
 * over all of a memory's accesses (the channels ACT-R counts), so with them an agent ranks a shared
 * memory exactly as an operator does. Its own entries are hidden like the rest (one rule, and the
 * cheapest to apply): its own accesses, with their queries, are its rows of mnemo_access_events.
 *
 * How, keeping the stored row nooa's, whole, for operators, copies, time travel and the journal:
 *
 * - **Column privileges.** An agent's role may not read `memories.data` (nor the change feeds'
 *   before-images): a statement that names it, in a SELECT list, a WHERE, a RETURNING, a SET
 *   expression or a whole-row reference, is refused. It may still write `data`.
 * - **A view to read through.** `mnemo_agent_memories` (security_invoker: the table's row-level
 *   security filters its rows as the reader's) has every column of `memories`, and `data` from
 *   `mnemo_agent_data(id)`, a definer that reads the row's data with each ring entry public
 *   (`mnemo_ring_public`), for the session's agent and only within its scope: `{"ts": …, "channel": …,
 *   "reader_owner": "", "session_ref": null, …}`, the rest of the text as stored. The engine on an
 *   agent's role reads memories through it (pg-agent-reads.ts) and writes to the table.
 * - **Writes keep what the agent could not read.** The engine writes back the whole `data` it read
 *   (an access appended to the ring, an edit of a shared memory). A BEFORE UPDATE trigger, for
 *   agents' sessions, puts back the stored entries where the written ring lines up with the stored
 *   one by time and channel (`mnemo_ring_restored`): the entries kept from the stored ring's end
 *   come back as stored, what the agent added at the end stays. So an access by an agent loses
 *   nothing of writer@1's entries, and whatever the agent writes in place of another reader's entry
 *   (its public form, a guess of the original), the stored entry comes back: the commit check
 *   (pg-agent-writes-ddl.ts) sees the same row whatever it guessed, so a write cannot test a guess.
 *   A written ring that does not line up is left as written, for the commit check to judge
 *   (journalled, or refused).
 *
 * Reading through the view costs the server an index lookup and a parse of each ring it returns,
 * for the rows returned only: the function is costly, so the planner computes it after a page's
 * ORDER BY … LIMIT (a security-barrier view would compute it for every row the page sorts);
 * operators read the table and pay nothing. The journal's images and the feeds'
 * before-images hold whole rows too; agents read neither (the journal is closed to them, the image
 * columns are not granted, and the engine refuses time travel on an agent's role before it reads).
 */
import { ACCESS_CHANNELS } from '../../model/enums.js';
import { AGENT_MEMORIES_VIEW, AGENTS_TABLE } from './pg-agent-privileges.js';
import { notOwnerSession } from './pg-agent-writes-ddl.js';

/** An access record's fields an agent does not read (core/model/memory.ts AccessRecord, after ts and channel). */
const HIDDEN_FIELDS = ['reader_owner', 'session_ref', 'trace_ref', 'query', 'score', 'rank', 'components'];
/** What stands after an entry's time and channel: the hidden fields, blank, in nooa's layout. */
const BLANK_TAIL = `, "reader_owner": "", ${HIDDEN_FIELDS.slice(1).map((f) => `"${f}": null`).join(', ')}}`;

/** The columns of `memories` in the table's order, `data` last (pg-schema.ts). */
const MEMORY_VIEW_COLUMNS = ['rowid', 'id', 'type', 'content', 'importance', 'salience', 'strength', 'created_at', 'last_accessed', 'access_count', 'archived', 'owner', 'status', 'embedding'];

/** nooa's channels as JSON text: a channel is shown only if it is one of them (any other value could say anything). */
const CHANNEL_TEXTS = ACCESS_CHANNELS.map((c) => `'"${c}"'`).join(', ');

/** SQL: a ring entry's time and channel (json values, `ts` and `channel`) as the text of its public form, in nooa's layout. */
const publicEntry = (ts: string, channel: string) =>
  `'{"ts": ' || CASE WHEN json_typeof(${ts}) = 'number' THEN ${ts}::text ELSE 'null' END || ', "channel": ' || CASE WHEN ${channel}::text IN (${CHANNEL_TEXTS}) THEN ${channel}::text ELSE 'null' END || '${BLANK_TAIL}'`;

/** The statements that make the redaction functions, the view and the restoring trigger; `t` qualifies a name, `ownerOid` is the tables' owner's role. */
export function agentRingsDdl(t: (name: string) => string, ownerOid: number): string[] {
  const notOwner = notOwnerSession(ownerOid);
  const definer = 'SECURITY DEFINER SET search_path = pg_catalog, pg_temp';
  return [
    // The data with every ring entry as its time and channel. Most rows are nooa's layout (pyDumps,
    // Python's json.dumps): then only the ring's text is parsed and replaced, the rest kept byte for
    // byte. That is sure only when nothing can spell a second ring the engine would read instead:
    // one "access_log" in the text and no escaped printable ASCII (a key spelled "access\u005flog");
    // otherwise the whole row is parsed (jsonb keeps the last of duplicate keys, as JSON.parse does).
    // Not JSON: null (the engine reads such a row as unreadable, as it would the stored text).
    `CREATE OR REPLACE FUNCTION ${t('mnemo_ring_public')}(p_data text) RETURNS text LANGUAGE plpgsql IMMUTABLE AS $$
     DECLARE
       v_at int; v_len int; v_ring text; v_doc jsonb;
     BEGIN
       IF p_data IS NULL THEN RETURN NULL; END IF;
       v_at := strpos(p_data, '"access_log": [');
       IF v_at > 0 AND strpos(substr(p_data, v_at + 1), '"access_log"') = 0 AND strpos(p_data, '"access_log"') = v_at
          AND (strpos(p_data, '\\u00') = 0 OR p_data !~ '\\\\u00[2-7]') THEN
         v_len := strpos(substr(p_data, v_at), '], "access_count": ') - 14;
         IF v_len > 0 THEN
           BEGIN
             SELECT '[' || coalesce(string_agg(${publicEntry('x.ts', 'x.channel')}, ', ' ORDER BY x.n), '') || ']' INTO v_ring
               FROM ROWS FROM (json_to_recordset(substr(p_data, v_at + 14, v_len)::json) AS (ts json, channel json)) WITH ORDINALITY AS x(ts, channel, n);
             RETURN overlay(p_data placing v_ring from v_at + 14 for v_len);
           EXCEPTION WHEN others THEN
             NULL; -- not a ring of objects (a legacy ring of bare times, say): the whole row below
           END;
         END IF;
       END IF;
       BEGIN
         v_doc := p_data::jsonb;
       EXCEPTION WHEN others THEN
         RETURN NULL;
       END;
       IF jsonb_typeof(v_doc) <> 'object' OR NOT v_doc ? 'access_log' THEN RETURN p_data; END IF;
       IF jsonb_typeof(v_doc -> 'access_log') <> 'array' THEN RETURN jsonb_set(v_doc, '{access_log}', 'null')::text; END IF;
       RETURN jsonb_set(v_doc, '{access_log}', (
         SELECT coalesce(jsonb_agg(CASE jsonb_typeof(e) WHEN 'number' THEN e WHEN 'object' THEN (${publicEntry("(e -> 'ts')::json", "(e -> 'channel')::json")})::jsonb ELSE 'null' END ORDER BY n), '[]')
         FROM jsonb_array_elements(v_doc -> 'access_log') WITH ORDINALITY y(e, n)))::text;
     END $$`,
    // The data p_new (written by an agent, which read p_old's ring public) with the stored entries
    // put back: the longest run kept from the stored ring's end whose entries' times and channels
    // line up with the written ring's start comes back as stored, what follows it stays as written.
    // No such run, or not JSON: p_new as written.
    `CREATE OR REPLACE FUNCTION ${t('mnemo_ring_restored')}(p_old text, p_new text) RETURNS text LANGUAGE plpgsql IMMUTABLE AS $$
     DECLARE
       o json; w json; o_text text[]; o_seen jsonb[]; w_text text[]; w_seen jsonb[]; lo int; lw int; k int; v_ring text; v_marker text; v_at int;
     BEGIN
       o := p_old::json -> 'access_log'; w := p_new::json -> 'access_log';
       IF json_typeof(o) IS DISTINCT FROM 'array' OR json_typeof(w) IS DISTINCT FROM 'array' THEN RETURN p_new; END IF;
       SELECT coalesce(array_agg(e::text ORDER BY n), '{}'), coalesce(array_agg(jsonb_build_array(e -> 'ts', e -> 'channel') ORDER BY n), '{}')
         INTO o_text, o_seen FROM json_array_elements(o) WITH ORDINALITY y(e, n);
       SELECT coalesce(array_agg(e::text ORDER BY n), '{}'), coalesce(array_agg(jsonb_build_array(e -> 'ts', e -> 'channel') ORDER BY n), '{}')
         INTO w_text, w_seen FROM json_array_elements(w) WITH ORDINALITY y(e, n);
       lo := coalesce(array_length(o_text, 1), 0); lw := coalesce(array_length(w_text, 1), 0);
       FOR a IN GREATEST(0, lw - lo) .. lw LOOP
         k := lw - a;
         CONTINUE WHEN w_seen[1:k] IS DISTINCT FROM o_seen[lo - k + 1:lo];
         IF k = 0 THEN RETURN p_new; END IF;
         v_ring := '[' || array_to_string(o_text[lo - k + 1:lo] || w_text[k + 1:lw], ', ') || ']';
         IF v_ring = w::text THEN RETURN p_new; END IF;
         -- In place where the written ring's text stands once after its key (nooa's layout), else through jsonb.
         v_marker := '"access_log": ' || w::text;
         v_at := strpos(p_new, v_marker);
         IF v_at > 0 AND strpos(substr(p_new, v_at + 1), v_marker) = 0 THEN
           RETURN overlay(p_new placing '"access_log": ' || v_ring from v_at for length(v_marker));
         END IF;
         RETURN jsonb_set(p_new::jsonb, '{access_log}', v_ring::jsonb)::text;
       END LOOP;
       RETURN p_new;
     EXCEPTION WHEN others THEN
       -- Not JSON, either side: nothing to put back; the commit check judges the write.
       RETURN p_new;
     END $$`,
    `CREATE OR REPLACE FUNCTION ${t('mnemo_agent_restore_ring')}() RETURNS trigger LANGUAGE plpgsql ${definer} AS $$
     BEGIN
       IF NEW.data IS NOT DISTINCT FROM OLD.data OR NOT EXISTS (SELECT 1 FROM ${t(AGENTS_TABLE)} a WHERE a.db_role = session_user) THEN RETURN NEW; END IF;
       NEW.data := ${t('mnemo_ring_restored')}(OLD.data, NEW.data);
       RETURN NEW;
     END $$`,
    `REVOKE ALL ON FUNCTION ${t('mnemo_agent_restore_ring')}() FROM PUBLIC`,
    `CREATE OR REPLACE TRIGGER mnemo_agent_restore_ring BEFORE UPDATE OF data ON ${t('memories')} FOR EACH ROW WHEN (${notOwner}) EXECUTE FUNCTION ${t('mnemo_agent_restore_ring')}()`,
    // One memory's data, every ring entry public, for the agent's session; nothing (null) outside
    // its scope, so calling it by id gives no more than the view. A definer (the agent may not read
    // the column), keyed on the session's login role as the journal's door is.
    `CREATE OR REPLACE FUNCTION ${t('mnemo_agent_data')}(p_id text) RETURNS text LANGUAGE sql STABLE ${definer} COST 1000 AS $$
       SELECT ${t('mnemo_ring_public')}(m.data) FROM ${t('memories')} m
       WHERE m.id = p_id AND ${t('mnemo_owner_in_role_scope')}(m.owner, (SELECT split_part(a.owner, '@', 1) FROM ${t(AGENTS_TABLE)} a WHERE a.db_role = session_user)) IS TRUE $$`,
    // The reader's rows, filtered by the table's row-level security as the reader's (security_invoker,
    // so a leaky condition of the reader's runs after the policy, as on the table), every column but
    // data as stored, data through mnemo_agent_data. The view is flattened into the reader's query
    // and the function is costly, so a page (ORDER BY … LIMIT) computes the data of its rows only.
    `CREATE OR REPLACE VIEW ${t(AGENT_MEMORIES_VIEW)} WITH (security_invoker = true, security_barrier = false) AS
       SELECT ${MEMORY_VIEW_COLUMNS.map((c) => `m.${c}`).join(', ')}, ${t('mnemo_agent_data')}(m.id) AS data
       FROM ${t('memories')} m`,
  ];
}
