/**
 * How long a PostgreSQL statement may wait: for a lock another connection holds (lock_timeout), and
 * in all (statement_timeout). Every connection sets both, so no statement waits without bound: an
 * agent's write stuck behind a lock, or a query the server cannot finish, comes back as a typed
 * `busy` error naming the statement (sync-pg.ts), and its engine worker moves on to the next call.
 *
 * Each is configurable per store, in its URL (`?lock_timeout=2000&statement_timeout=30000`, in
 * milliseconds, as PostgreSQL's own settings of those names), or for every store of a process
 * with MNEMO_PG_LOCK_TIMEOUT_MS / MNEMO_PG_STATEMENT_TIMEOUT_MS. 0 turns one off, as in PostgreSQL.
 */
import { badInput } from '../../errors.js';

export interface PgTimeouts {
  lockMs: number;
  statementMs: number;
}

/**
 * The defaults. A lock is held for one short transaction at a time (a long change is paced in
 * batches of well under a second), so five seconds of waiting means something is stuck. A
 * statement gets 100 s: the longest the adapter sends (a page of a bulk load, a copy's batch, a
 * migration's index) take seconds, and the bridge gives up on a reply after 120 s, which leaves
 * its connection unusable; the server's own timeout comes first and leaves it clean.
 */
export const DEFAULT_PG_TIMEOUTS: PgTimeouts = { lockMs: 5_000, statementMs: 100_000 };

const URL_KEY = { lockMs: 'lock_timeout', statementMs: 'statement_timeout' } as const;
const ENV_KEY = { lockMs: 'MNEMO_PG_LOCK_TIMEOUT_MS', statementMs: 'MNEMO_PG_STATEMENT_TIMEOUT_MS' } as const;

function milliseconds(raw: string, where: string): number {
  if (!/^\d{1,9}$/.test(raw.trim())) throw badInput(`${where} is ${JSON.stringify(raw.slice(0, 40))}: give whole milliseconds (0 turns it off)`, { field: where });
  return Number(raw.trim());
}

/** The timeouts a connection to `url` sets: the URL's own, else the environment's, else the defaults. */
export function pgTimeouts(url: string, env: NodeJS.ProcessEnv = process.env): PgTimeouts {
  const query = new URLSearchParams(url.includes('?') ? url.slice(url.indexOf('?') + 1) : '');
  const pick = (k: keyof PgTimeouts): number => {
    const fromUrl = query.get(URL_KEY[k]);
    if (fromUrl !== null) return milliseconds(fromUrl, `${URL_KEY[k]} in the store URL`);
    const fromEnv = env[ENV_KEY[k]];
    if (fromEnv !== undefined && fromEnv !== '') return milliseconds(fromEnv, ENV_KEY[k]);
    return DEFAULT_PG_TIMEOUTS[k];
  };
  return { lockMs: pick('lockMs'), statementMs: pick('statementMs') };
}

/** A statement as an error names it: its first words, on one line. */
export function statementHead(sql: string): string {
  const flat = sql.replace(/\s+/g, ' ').trim();
  return flat.length > 160 ? `${flat.slice(0, 157)}…` : flat;
}
