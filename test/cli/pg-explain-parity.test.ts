/**
 * `mnemo explain --profile nooa-0.0.9 --json` on a PostgreSQL copy of the nooa fixture prints what it
 * prints on the SQLite fixture, for every call the fixture records (same rows in the same order, the
 * same numbers to the last digit printed), against a real server (MNEMO_TEST_PG_URL, or a throwaway
 * cluster; .ci/run installs PostgreSQL so CI never skips this).
 *
 * What could go wrong: a float read back through PostgreSQL a bit off, owners or edge types matched
 * with another collation, rows in another order where SQLite's rowid order breaks a tie, an access
 * ring or embedding decoded differently, recency read against another clock.
 */
import { describe, expect, it } from 'vitest';
import { copyStore } from '../../core/store/copy/copy-stores.js';
import { freshSchemaUrl } from '../../support/pg-cluster.js';
import { expected, fixtureFileCopy } from '../../support/fixture.js';
import { runCli } from '../helpers/cli.js';
import { pgServer } from '../helpers/pg-server.js';

interface Call {
  query: string;
  k: number;
  hops: number;
  owner: string | null;
}

const now = String(expected().now);
const calls: Call[] = [...(expected().explain as Call[]), ...(expected().explain_full as Call[])];

let sqlite = '';
let postgres = '';

const server = pgServer({
  started: (url) => {
    sqlite = fixtureFileCopy();
    postgres = freshSchemaUrl(url, 'explain_parity');
    copyStore(sqlite, postgres);
  },
});

function argsOf(db: string, c: Call): string[] {
  return ['explain', db, c.query, '--k', String(c.k), '--hops', String(c.hops), ...(c.owner !== null ? ['--owner', c.owner] : []), '--profile', 'nooa-0.0.9', '--now', now, '--json'];
}

describe.skipIf(server.unavailable)('explain on a PostgreSQL copy of the nooa fixture', () => {
  it(`prints exactly what the SQLite fixture prints, for all ${calls.length} recorded calls`, async () => {
    let rows = 0;
    for (const c of calls) {
      const onSqlite = await runCli(argsOf(sqlite, c));
      const onPostgres = await runCli(argsOf(postgres, c));
      expect(onSqlite.code, onSqlite.stderr).toBe(0);
      expect(onPostgres.code, `${c.query}: ${onPostgres.stderr}`).toBe(0);
      // The whole printed JSON, byte for byte: ids, order, every number and every head.
      expect(onPostgres.stdout, `${c.query} (k ${c.k}, hops ${c.hops}, owner ${c.owner})`).toBe(onSqlite.stdout);
      rows += (onSqlite.json() as unknown[]).length;
    }
    // The calls are not all empty: the comparison compared rows.
    expect(rows).toBeGreaterThan(calls.length);
    console.log(`pg explain parity: ${calls.length} calls, ${rows} rows, identical on both backends`);
  }, 600_000);
});
