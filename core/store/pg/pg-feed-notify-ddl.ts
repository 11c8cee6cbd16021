/**
 * Wake-ups for live views: each transaction that writes the change feed sends one notification on
 * the `mnemo_feed` channel, its payload the store's schema, so a process showing the store (browser
 * mode, the desktop app) checks the feed at once instead of at its next poll (pg-change-notices.ts).
 *
 * The trigger is on the feed table, not on `memories`, so it fires for every writer the feed
 * records, a foreign one with raw SQL included. PostgreSQL folds identical notifications of one
 * transaction into one, and delivers them at commit only: a rolled-back change wakes nobody. The
 * notification carries nothing a listener could not read anyway (the schema's name); what changed
 * is read from the feed, under the reader's own privileges.
 */
import { ident } from './pg-url.js';

/** The channel every store's feed notifies on (one per database; listeners filter by payload). */
export const PG_FEED_CHANNEL = 'mnemo_feed';

/** The statements that add the notification to a store's feed; each can run again. */
export function pgFeedNotifyDdl(schema: string, feedTable: string): string[] {
  const s = ident(schema);
  const fn = `${s}.${ident('mnemo_pg_feed_notify')}`;
  const payload = `'${schema.replace(/'/g, "''")}'`;
  return [
    `CREATE OR REPLACE FUNCTION ${fn}() RETURNS trigger LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
     BEGIN
       PERFORM pg_notify('${PG_FEED_CHANNEL}', ${payload});
       RETURN NULL;
     END $$`,
    `CREATE OR REPLACE TRIGGER mnemo_pg_feed_notify AFTER INSERT ON ${s}.${ident(feedTable)} FOR EACH STATEMENT EXECUTE FUNCTION ${fn}()`,
  ];
}
