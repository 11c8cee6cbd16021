/**
 * Store-wide settings and run markers on PostgreSQL, where agents cannot write them:
 *
 * - `mnemo_meta` (the embedder, the default profile, belief constants, feed retention, …) is
 *   read-only to agents' roles (pg-agent-privileges.ts). A value the engine could not use is refused
 *   where it is written, by a trigger, whoever writes it (an operator's raw SQL too): the embedder
 *   (a name, and never changed while memories hold vectors made by the recorded one: every open
 *   would refuse the store), the profile (a built-in or saved one), the belief constants (a JSON
 *   object), the feed's retention (whole days, 1 to 36,500). Before, one bad row made every recall
 *   and every open of every process fail until someone repaired it by hand.
 * - The markers of long changes and belief ingests (change-run.ts, ingest-run.ts) live in their
 *   own table, `mnemo_pg_runs`, with the role that wrote each. Recovery rolls a change back from a
 *   marker, so it trusts one only if an operator's kind of role wrote it: a role that may write the
 *   journal and is not an agent's (`mnemo_run_writer_trusted`). A marker of no such writer is not
 *   seen (and a run may claim its key over it); a marker planted by an agent before this upgrade
 *   deleted another owner's memory at the operator's next write.
 */
import { BUILTIN_PROFILE_NAMES } from '../../model/profile-names.js';
import { AGENTS_TABLE, RUNS_TABLE } from './pg-agent-privileges.js';

const lit = (s: string) => `'${s.replace(/'/g, "''")}'`;

/** The statements (each can run again) that add the checks and the markers' table to a store; `t` qualifies a name. */
export function settingsDdl(t: (name: string) => string): string[] {
  const definer = 'SECURITY DEFINER SET search_path = pg_catalog, pg_temp';
  const refuse = (why: string) => `RAISE EXCEPTION 'mnemo: the store setting % cannot be %: ${why}', NEW.key, quote_literal(NEW.value) USING ERRCODE = '22023'`;
  return [
    // Every store has the agents' table (empty until a grant): the markers' trust reads it.
    `CREATE TABLE IF NOT EXISTS ${t(AGENTS_TABLE)} (db_role text COLLATE "C" PRIMARY KEY, owner text COLLATE "C" NOT NULL)`,
    `CREATE TABLE IF NOT EXISTS ${t(RUNS_TABLE)} (key text COLLATE "C" PRIMARY KEY, value text NOT NULL, writer text COLLATE "C" DEFAULT current_user)`,
    `CREATE OR REPLACE FUNCTION ${t('mnemo_run_writer_trusted')}(w text) RETURNS boolean LANGUAGE sql STABLE ${definer} AS $$
       SELECT CASE WHEN w IS NULL OR NOT EXISTS (SELECT 1 FROM pg_roles r WHERE r.rolname = w) THEN false
                   ELSE NOT EXISTS (SELECT 1 FROM ${t(AGENTS_TABLE)} a WHERE a.db_role = w) AND has_table_privilege(w, ${lit(t('mnemo_journal'))}, 'INSERT') END $$`,
    `CREATE OR REPLACE FUNCTION ${t('mnemo_check_setting')}() RETURNS trigger LANGUAGE plpgsql ${definer} AS $$
     DECLARE
       v_json jsonb;
     BEGIN
       IF NEW.key = 'embedder' THEN
         IF NEW.value !~ '^[^[:space:][:cntrl:]]{1,200}$' OR (NEW.value ~ '^hashing-' AND (NEW.value !~ '^hashing-[1-9][0-9]{0,4}$' OR substr(NEW.value, 9)::int > 65536)) THEN
           ${refuse('an embedder is a name of 1 to 200 characters without spaces (hashing-<dimension>, dimension 1 to 65536, or the embedding model’s name)')};
         END IF;
         IF TG_OP = 'UPDATE' AND NEW.value IS DISTINCT FROM OLD.value AND EXISTS (SELECT 1 FROM ${t('memories')} m WHERE m.embedding IS NOT NULL) THEN
           RAISE EXCEPTION 'mnemo: the store setting embedder cannot change from % to %: the memories hold vectors made by the first; re-embed into a new store instead', quote_literal(OLD.value), quote_literal(NEW.value)
             USING ERRCODE = '22023';
         END IF;
       ELSIF NEW.key = 'profile' THEN
         IF NOT (NEW.value = ANY (ARRAY[${BUILTIN_PROFILE_NAMES.map(lit).join(', ')}]::text[]) OR EXISTS (SELECT 1 FROM ${t('mnemo_profiles')} p WHERE p.name = NEW.value)) THEN
           ${refuse(`it names no built-in profile (${BUILTIN_PROFILE_NAMES.join(', ')}) and no saved one`)};
         END IF;
       ELSIF NEW.key = 'beliefs_config' THEN
         BEGIN
           v_json := NEW.value::jsonb;
         EXCEPTION WHEN others THEN
           v_json := NULL;
         END;
         IF v_json IS NULL OR jsonb_typeof(v_json) <> 'object' THEN ${refuse('the belief constants are a JSON object')}; END IF;
       ELSIF NEW.key IN ('feed_retention_days', 'feed_access_retention_days') THEN
         IF NEW.value !~ '^[1-9][0-9]{0,4}$' OR NEW.value::int > 36500 THEN ${refuse('a retention is a whole number of days from 1 to 36500')}; END IF;
       END IF;
       RETURN NEW;
     END $$`,
    `CREATE OR REPLACE TRIGGER mnemo_check_setting BEFORE INSERT OR UPDATE ON ${t('mnemo_meta')} FOR EACH ROW EXECUTE FUNCTION ${t('mnemo_check_setting')}()`,
  ];
}
