/**
 * A PostgreSQL server for tests and benchmarks. With MNEMO_TEST_PG_URL set, that server is used as
 * it is. Otherwise a throwaway cluster is made: `initdb` into a temporary folder, then `pg_ctl start`
 * listening only on a Unix socket in that folder (listen_addresses=''), stopped and removed by
 * `stop()`. initdb refuses to run as root, so under root the server runs as the `postgres` user the
 * Debian package creates, and the folder is handed to it.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SyncPg } from '../core/store/pg/sync-pg.js';

export interface PgServer {
  /** postgres://… for the `postgres` database. */
  readonly url: string;
  /** Whether this process started it (and stop() removes it). */
  readonly throwaway: boolean;
  /** A throwaway cluster's data directory (its table files, for tests that read them); null for a server named by URL. */
  readonly dataDir: string | null;
  /** The folder holding pg_dump and the server's other programs; null when none is installed. */
  readonly binDir: string | null;
  stop(): void;
}

export const PG_URL_ENV = 'MNEMO_TEST_PG_URL';

/** The folder holding initdb and pg_ctl, or null (with why) when PostgreSQL's server is not installed. */
export function pgBinaries(): { dir: string } | { missing: string } {
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root) ? readdirSync(root).filter((v) => existsSync(join(root, v, 'bin', 'initdb'))).sort((a, b) => Number(b) - Number(a)) : [];
  if (versions.length === 0) return { missing: `PostgreSQL's server is not installed (no ${root}/<version>/bin/initdb; Debian: apt-get install -y postgresql), and ${PG_URL_ENV} is not set` };
  return { dir: join(root, versions[0]!, 'bin') };
}

/** The command prefix that runs a server program as its owner (`runuser -u postgres --` under root). */
export function asServerUser(): string[] {
  return process.getuid?.() === 0 ? ['runuser', '-u', 'postgres', '--'] : [];
}

function run(argv: string[]): void {
  const [cmd, ...args] = argv;
  execFileSync(cmd!, args, { stdio: ['ignore', 'pipe', 'pipe'] });
}

export function startPg(): PgServer {
  const given = process.env[PG_URL_ENV];
  if (given) {
    const bins = pgBinaries();
    return { url: given, throwaway: false, dataDir: null, binDir: 'dir' in bins ? bins.dir : null, stop: () => {} };
  }
  const bins = pgBinaries();
  if ('missing' in bins) throw new Error(bins.missing);
  const base = mkdtempSync(join(tmpdir(), 'mnemo-pg-'));
  chmodSync(base, 0o755);
  const data = join(base, 'data');
  const prefix = asServerUser();
  if (prefix.length) run(['chown', 'postgres', base]);
  run([...prefix, join(bins.dir, 'initdb'), '-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync']);
  run([...prefix, join(bins.dir, 'pg_ctl'), '-D', data, '-w', '-l', join(base, 'server.log'), '-o', `-c listen_addresses='' -k ${base} -c fsync=off`, 'start']);
  // PostgreSQL engines cache their index snapshots per machine (core/store/pg/pg-index-cache.ts):
  // the tests' go in the cluster's folder, removed with it, never in the user's cache.
  process.env.MNEMO_INDEX_CACHE_DIR ??= join(base, 'index-cache');
  let stopped = false;
  return {
    url: `postgres://postgres@/postgres?host=${encodeURIComponent(base)}`,
    throwaway: true,
    dataDir: data,
    binDir: bins.dir,
    stop() {
      if (stopped) return;
      stopped = true;
      try {
        run([...prefix, join(bins.dir, 'pg_ctl'), '-D', data, '-w', '-m', 'fast', 'stop']);
      } finally {
        rmSync(base, { recursive: true, force: true });
      }
    },
  };
}

/** Why no PostgreSQL server can be had for the tests here (none given by URL, none installed), or null when one can. */
export function pgUnavailable(): string | null {
  if (process.env[PG_URL_ENV]) return null;
  const b = pgBinaries();
  return 'missing' in b ? b.missing : null;
}

/** The URL of the store in `schema` on a server, with the schema emptied first (dropped if it existed). */
export function freshSchemaUrl(serverUrl: string, schema: string): string {
  const admin = SyncPg.connect(serverUrl);
  try {
    admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  } finally {
    admin.close();
  }
  return `${serverUrl}${serverUrl.includes('?') ? '&' : '?'}schema=${schema}`;
}
