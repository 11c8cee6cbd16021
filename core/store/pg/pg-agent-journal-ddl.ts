/**
 * The door through which an agent's database role (pg-grant.ts) journals its changes: two
 * SECURITY DEFINER functions, owned by whoever runs `mnemo pg grant` (the tables' owner), with a
 * fixed search_path and every name schema-qualified. Agents keep no privilege on the journal's
 * tables, so they read no image at all (an image may hold any owner's row); they can only hand a
 * finished change to `mnemo_agent_journal_write`, which checks every image before it writes:
 *
 * - `m:<id>`: each image is a memory row with that id and an owner in the agent's scope, and the
 *   memory as it stands now (if any) is in scope too, so an operator's later undo can neither
 *   write nor delete another owner's memory for the agent;
 * - `t:<hash>`: the same for a tombstone (its hash and owner);
 * - `profile:`, `meta:`, `belief-alias:`, `belief-reject:`: rows of shared tables the agent may
 *   write directly anyway;
 * - anything else is refused. One refused image refuses the whole change; nothing is written.
 *
 * Inside a SECURITY DEFINER function current_user is the definer, so the agent is recognised by
 * session_user (the role it logged in as): a session that logged in as someone else and SET ROLE
 * to an agent is refused, not widened. The change's id must be the one this session last drew from
 * the journal's identity sequence, so an agent cannot slot a change in among older ones, and the
 * credential it names (if any) must be one of its scope's, so it cannot sign as another role.
 *
 * `mnemo_agent_feed_attribute` stamps the change feed's rows of the current transaction (the rows
 * the agent's own writes produced) with the change, which agents, reading the feed only, cannot.
 */
import { ALIAS_NS, REJECTION_NS } from '../../model/belief-journal-keys.js';
import { PG_FEED_TABLE } from './pg-feed-ddl.js';

/** Row kinds of shared tables: an agent writes them directly, so their images need no owner check. */
const SHARED_KINDS = ['profile', 'meta', ALIAS_NS, REJECTION_NS];

export const AGENT_JOURNAL_WRITE = 'mnemo_agent_journal_write';
export const AGENT_FEED_ATTRIBUTE = 'mnemo_agent_feed_attribute';

/** The statements that (re)create the two functions and let `role` (quoted) call them; `t` qualifies a name. */
export function agentJournalDdl(t: (name: string) => string, role: string, feedPresent: boolean): string[] {
  const lit = (s: string) => `'${s.replace(/'/g, "''")}'`;
  const inScope = t('mnemo_owner_in_role_scope');
  const refuse = (what: string) => `RAISE EXCEPTION 'mnemo: an agent may not journal %: ${what}', v_key USING ERRCODE = '42501'`;
  const statements = [
    // The owner rule of pg-grant.ts for an explicit role (not the current user's, which a definer cannot see).
    `CREATE OR REPLACE FUNCTION ${inScope}(o text, r text) RETURNS boolean LANGUAGE sql IMMUTABLE AS $$
       SELECT o IS NOT NULL AND (o COLLATE "C" = '' OR o COLLATE "C" = r OR (o COLLATE "C" >= r || '@' AND o COLLATE "C" < r || 'A')) $$`,
    `CREATE OR REPLACE FUNCTION ${t(AGENT_JOURNAL_WRITE)}(p_change_id bigint, p_ts double precision, p_label text, p_kind text, p_counts text, p_meta text, p_credential_id text, p_keys text[], p_befores text[], p_afters text[])
     RETURNS void LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
     DECLARE
       v_role text; v_key text; v_ns text; v_id text; v_img text; v_owner text; v_count int := coalesce(array_length(p_keys, 1), 0);
     BEGIN
       SELECT split_part(a.owner, '@', 1) INTO v_role FROM ${t('mnemo_pg_agents')} a WHERE a.db_role = session_user;
       IF v_role IS NULL THEN RAISE EXCEPTION 'mnemo: % is not an agent role of this store', session_user USING ERRCODE = '42501'; END IF;
       IF p_change_id IS DISTINCT FROM currval(pg_get_serial_sequence(${lit(t('mnemo_journal'))}, 'id')) THEN
         RAISE EXCEPTION 'mnemo: change % was not drawn by this session', p_change_id USING ERRCODE = '42501';
       END IF;
       IF p_credential_id IS NOT NULL AND NOT EXISTS (SELECT 1 FROM ${t('mnemo_agent_credentials')} c WHERE c.id = p_credential_id AND ${inScope}(c.owner, v_role)) THEN
         RAISE EXCEPTION 'mnemo: an agent may not name credential % (none of its scope)', p_credential_id USING ERRCODE = '42501';
       END IF;
       IF v_count = 0 OR coalesce(array_length(p_befores, 1), 0) <> v_count OR coalesce(array_length(p_afters, 1), 0) <> v_count THEN
         RAISE EXCEPTION 'mnemo: a change needs as many before- and after-images as keys, and at least one' USING ERRCODE = '22023';
       END IF;
       FOR i IN 1 .. v_count LOOP
         v_key := p_keys[i];
         v_ns := split_part(v_key, ':', 1);
         v_id := substr(v_key, length(v_ns) + 2);
         IF v_ns = 'm' THEN
           FOREACH v_img IN ARRAY ARRAY[p_befores[i], p_afters[i]] LOOP
             CONTINUE WHEN v_img IS NULL;
             IF (v_img::json -> 'row' ->> 'id') IS DISTINCT FROM v_id THEN ${refuse('the image is of another memory')}; END IF;
             IF ${inScope}(v_img::json -> 'row' ->> 'owner', v_role) IS NOT TRUE THEN ${refuse('the image names an owner outside its scope')}; END IF;
           END LOOP;
           SELECT m.owner INTO v_owner FROM ${t('memories')} m WHERE m.id = v_id;
           IF FOUND AND ${inScope}(v_owner, v_role) IS NOT TRUE THEN ${refuse('the memory belongs to an owner outside its scope')}; END IF;
         ELSIF v_ns = 't' THEN
           FOREACH v_img IN ARRAY ARRAY[p_befores[i], p_afters[i]] LOOP
             CONTINUE WHEN v_img IS NULL;
             IF (v_img::json ->> 'hash') IS DISTINCT FROM v_id THEN ${refuse('the image is of another tombstone')}; END IF;
             IF ${inScope}(v_img::json ->> 'owner', v_role) IS NOT TRUE THEN ${refuse('the image names an owner outside its scope')}; END IF;
           END LOOP;
           SELECT x.owner INTO v_owner FROM ${t('mnemo_tombstones')} x WHERE x.hash = v_id;
           IF FOUND AND ${inScope}(v_owner, v_role) IS NOT TRUE THEN ${refuse('the tombstone belongs to an owner outside its scope')}; END IF;
         ELSIF v_ns <> ALL (ARRAY[${SHARED_KINDS.map(lit).join(', ')}]) THEN
           ${refuse('no such kind of row')};
         END IF;
       END LOOP;
       INSERT INTO ${t('mnemo_journal')}(id, ts, label, kind, counts, state, meta, credential_id)
         VALUES (p_change_id, p_ts, p_label, p_kind, p_counts, 'applied', p_meta, p_credential_id);
       INSERT INTO ${t('mnemo_journal_rows')}(change_id, key, before, after)
         SELECT p_change_id, u.key, u.before, u.after FROM unnest(p_keys, p_befores, p_afters) WITH ORDINALITY AS u(key, before, after, n) ORDER BY u.n;
     END $$`,
    `REVOKE ALL ON FUNCTION ${t(AGENT_JOURNAL_WRITE)}(bigint, double precision, text, text, text, text, text, text[], text[], text[]) FROM PUBLIC`,
    `GRANT EXECUTE ON FUNCTION ${t(AGENT_JOURNAL_WRITE)}(bigint, double precision, text, text, text, text, text, text[], text[], text[]) TO ${role}`,
  ];
  if (!feedPresent) return statements;
  return [
    ...statements,
    `CREATE OR REPLACE FUNCTION ${t(AGENT_FEED_ATTRIBUTE)}(p_change_id bigint) RETURNS void LANGUAGE sql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
       UPDATE ${t(PG_FEED_TABLE)} SET change_id = p_change_id WHERE xid = pg_current_xact_id() AND change_id IS NULL $$`,
    `REVOKE ALL ON FUNCTION ${t(AGENT_FEED_ATTRIBUTE)}(bigint) FROM PUBLIC`,
    `GRANT EXECUTE ON FUNCTION ${t(AGENT_FEED_ATTRIBUTE)}(bigint) TO ${role}`,
  ];
}
