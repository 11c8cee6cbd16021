/**
 * The door through which an agent's database role (pg-grant.ts) journals its changes: two
 * SECURITY DEFINER functions, owned by the tables' owner, with a fixed search_path and every name
 * schema-qualified, executable by the agents' roles only. Agents keep no privilege on the
 * journal's tables, so they read no image at all (an image may hold any owner's row).
 *
 * `mnemo_agent_journal_write` takes the agent's finished change (its keys; the images the engine
 * made are accepted for the call's shape and not used) and journals what the server saw instead:
 * for each key, the row's image from before this transaction first wrote it, kept by the write
 * ledger (pg-agent-writes-ddl.ts), and the row as it stands now. So an image cannot be forged (a
 * before-image of nothing would make an operator's undo delete a shared memory; a made-up one would
 * make it write the agent's text), and it holds what the agent may not see (an edge to another
 * owner's memory), which an undo then keeps. It refuses, writing nothing:
 *
 * - a key this transaction did not write (nothing to journal, or an attempt to journal a row that
 *   someone else changed), or of a kind other than `m:` (memory) and `t:` (tombstone): store-wide
 *   rows (settings, profiles, belief aliases) are not an agent's to write;
 * - a row whose owner, before or after, is outside the agent's scope;
 * - a change id other than the one this session last drew from the journal's sequence (an agent
 *   cannot slot a change in among older ones), or a credential that is not one of its role's.
 *
 * The counts are the server's too, and the change's meta names the agent's role (`agent_role`), so
 * the history shows who made it. Inside a definer function current_user is the definer, so the
 * agent is recognised by session_user (the role it logged in as).
 *
 * `mnemo_agent_feed_attribute` stamps the change feed's rows of the current transaction (the rows
 * the agent's own writes produced) with the change, which agents, reading the feed only, cannot.
 */
import { AGENT_WRITES_TABLE, AGENTS_TABLE } from './pg-agent-privileges.js';
import { PG_FEED_TABLE } from './pg-feed-ddl.js';

export const AGENT_JOURNAL_WRITE = 'mnemo_agent_journal_write';
export const AGENT_FEED_ATTRIBUTE = 'mnemo_agent_feed_attribute';

const WRITE_ARGS = 'bigint, double precision, text, text, text, text, text, text[], text[], text[]';

/** The statements that (re)create the two functions, which nobody may call until granted (agentJournalGrants); `t` qualifies a name. */
export function agentJournalDdl(t: (name: string) => string, feedPresent: boolean): string[] {
  const lit = (s: string) => `'${s.replace(/'/g, "''")}'`;
  const ledger = t(AGENT_WRITES_TABLE);
  const refuse = (what: string) => `RAISE EXCEPTION 'mnemo: an agent may not journal %: ${what}', v_key USING ERRCODE = '42501'`;
  const owner = (image: string) => `CASE WHEN v_ns = 'm' THEN ${image}::json -> 'row' ->> 'owner' ELSE ${image}::json ->> 'owner' END`;
  const statements = [
    `CREATE OR REPLACE FUNCTION ${t(AGENT_JOURNAL_WRITE)}(p_change_id bigint, p_ts double precision, p_label text, p_kind text, p_counts text, p_meta text, p_credential_id text, p_keys text[], p_befores text[], p_afters text[])
     RETURNS void LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
     DECLARE
       v_role text; v_key text; v_ns text; v_before text; v_after text; v_what text;
       v_keys text[] := '{}'; v_befores text[] := '{}'; v_afters text[] := '{}'; v_counts jsonb := '{}'::jsonb; v_meta jsonb;
       v_count int := coalesce(array_length(p_keys, 1), 0);
     BEGIN
       SELECT split_part(a.owner, '@', 1) INTO v_role FROM ${t(AGENTS_TABLE)} a WHERE a.db_role = session_user;
       IF v_role IS NULL THEN RAISE EXCEPTION 'mnemo: % is not an agent role of this store', session_user USING ERRCODE = '42501'; END IF;
       IF p_change_id IS DISTINCT FROM currval(pg_get_serial_sequence(${lit(t('mnemo_journal'))}, 'id')) THEN
         RAISE EXCEPTION 'mnemo: change % was not drawn by this session', p_change_id USING ERRCODE = '42501';
       END IF;
       IF p_credential_id IS NOT NULL AND NOT EXISTS (SELECT 1 FROM ${t('mnemo_agent_credentials')} c WHERE c.id = p_credential_id AND ${t('mnemo_owner_in_role_scope')}(c.owner, v_role)) THEN
         RAISE EXCEPTION 'mnemo: an agent may not name credential % (none of its scope)', p_credential_id USING ERRCODE = '42501';
       END IF;
       IF v_count = 0 THEN RAISE EXCEPTION 'mnemo: a change needs at least one row' USING ERRCODE = '22023'; END IF;
       -- Ledger rows of transactions that ended without their commit check (a write that did not happen).
       DELETE FROM ${ledger} w WHERE w.xid < pg_snapshot_xmin(pg_current_snapshot());
       FOR i IN 1 .. v_count LOOP
         v_key := p_keys[i];
         v_ns := split_part(v_key, ':', 1);
         IF v_ns NOT IN ('m', 't') THEN ${refuse('no such kind of row, or not an agent’s to write')}; END IF;
         IF v_key = ANY (v_keys) THEN ${refuse('the key comes twice')}; END IF;
         SELECT w.baseline INTO v_before FROM ${ledger} w WHERE w.xid = pg_current_xact_id() AND w.key = v_key FOR UPDATE;
         IF NOT FOUND THEN ${refuse('this transaction wrote no such row')}; END IF;
         v_after := ${t('mnemo_row_image')}(v_key);
         IF v_before IS NOT NULL AND ${t('mnemo_owner_in_role_scope')}(${owner('v_before')}, v_role) IS NOT TRUE THEN ${refuse('the row belonged to an owner outside its scope')}; END IF;
         IF v_after IS NOT NULL AND ${t('mnemo_owner_in_role_scope')}(${owner('v_after')}, v_role) IS NOT TRUE THEN ${refuse('the row belongs to an owner outside its scope')}; END IF;
         -- From here on the row is journalled as it stands: the commit check compares with that.
         UPDATE ${ledger} w SET baseline = v_after WHERE w.xid = pg_current_xact_id() AND w.key = v_key;
         CONTINUE WHEN v_before IS NOT DISTINCT FROM v_after;
         v_keys := v_keys || v_key; v_befores := v_befores || v_before; v_afters := v_afters || v_after;
         v_what := (CASE WHEN v_ns = 'm' THEN 'memories' ELSE v_ns END) || '_' || (CASE WHEN v_before IS NULL THEN 'created' WHEN v_after IS NULL THEN 'deleted' ELSE 'modified' END);
         v_counts := jsonb_set(v_counts, ARRAY[v_what], to_jsonb(coalesce((v_counts ->> v_what)::int, 0) + 1));
       END LOOP;
       BEGIN
         v_meta := coalesce(p_meta::jsonb, '{}'::jsonb);
         IF jsonb_typeof(v_meta) <> 'object' THEN v_meta := jsonb_build_object('meta', v_meta); END IF;
       EXCEPTION WHEN others THEN
         v_meta := jsonb_build_object('meta', p_meta);
       END;
       v_meta := v_meta || jsonb_build_object('agent_role', session_user::text);
       INSERT INTO ${t('mnemo_journal')}(id, ts, label, kind, counts, state, meta, credential_id)
         VALUES (p_change_id, p_ts, p_label, p_kind, v_counts::text, 'applied', v_meta::text, p_credential_id);
       INSERT INTO ${t('mnemo_journal_rows')}(change_id, key, before, after)
         SELECT p_change_id, u.key, u.before, u.after FROM unnest(v_keys, v_befores, v_afters) WITH ORDINALITY AS u(key, before, after, n) ORDER BY u.n;
     END $$`,
    `REVOKE ALL ON FUNCTION ${t(AGENT_JOURNAL_WRITE)}(${WRITE_ARGS}) FROM PUBLIC`,
  ];
  if (!feedPresent) return statements;
  return [
    ...statements,
    `CREATE OR REPLACE FUNCTION ${t(AGENT_FEED_ATTRIBUTE)}(p_change_id bigint) RETURNS void LANGUAGE sql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
       UPDATE ${t(PG_FEED_TABLE)} SET change_id = p_change_id
       WHERE xid = pg_current_xact_id() AND change_id IS NULL AND p_change_id = currval(pg_get_serial_sequence(${lit(t('mnemo_journal'))}, 'id')) $$`,
    `REVOKE ALL ON FUNCTION ${t(AGENT_FEED_ATTRIBUTE)}(bigint) FROM PUBLIC`,
  ];
}

/** Lets `role` (quoted) call the door. */
export function agentJournalGrants(t: (name: string) => string, role: string, feedPresent: boolean): string[] {
  return [
    `GRANT EXECUTE ON FUNCTION ${t(AGENT_JOURNAL_WRITE)}(${WRITE_ARGS}) TO ${role}`,
    ...(feedPresent ? [`GRANT EXECUTE ON FUNCTION ${t(AGENT_FEED_ATTRIBUTE)}(bigint) TO ${role}`] : []),
  ];
}
