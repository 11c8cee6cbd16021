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
/**
 * The data directory of the server PG_URL_ENV names, set only by a test run that started that
 * server itself (test/pg-global-setup.ts): a test that reads the server's files (the erase canary's
 * byte check) may then read them; a server named from outside keeps its files to itself.
 */
export const PG_DATA_DIR_ENV = 'MNEMO_TEST_PG_DATA_DIR';

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
    return { url: given, throwaway: false, dataDir: process.env[PG_DATA_DIR_ENV] || null, binDir: 'dir' in bins ? bins.dir : null, stop: () => {} };
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

/** A throwaway primary with one streaming standby beside it (pg_basebackup -R), each on its own port of one socket folder. */
export interface PgReplicatedServers {
  /** postgres://… for the `postgres` database on the primary, and on the standby. */
  readonly primaryUrl: string;
  readonly replicaUrl: string;
  /** Stops (fast shutdown) or starts again the primary or the standby; each waits until done. */
  stopPrimary(): void;
  startPrimary(): void;
  stopReplica(): void;
  startReplica(): void;
  /** Stops both and removes the folder. */
  stop(): void;
}

/** Why a primary and standby cannot be made here (they need the server binaries, whatever MNEMO_TEST_PG_URL says), or null. */
export function replicationUnavailable(): string | null {
  const b = pgBinaries();
  return 'missing' in b ? `${b.missing.replace(/, and MNEMO_TEST_PG_URL is not set$/, '')} (a standby is made with pg_basebackup from a throwaway primary)` : null;
}

/**
 * Makes a throwaway primary (as startPg does, on port 5432 of a new socket folder) and a hot
 * standby streaming from it (`pg_basebackup -R -X stream`, port 5433 of the same folder): the
 * replicas' tests and `bench backends --replica` read from the standby while they write the primary.
 */
export function startReplicatedPg(): PgReplicatedServers {
  const bins = pgBinaries();
  if ('missing' in bins) throw new Error(bins.missing);
  const base = mkdtempSync(join(tmpdir(), 'mnemo-pg-replicas-'));
  chmodSync(base, 0o755);
  const prefix = asServerUser();
  if (prefix.length) run(['chown', 'postgres', base]);
  const primaryData = join(base, 'primary');
  const replicaData = join(base, 'standby');
  const ctl = (data: string, port: number, action: 'start' | 'stop') =>
    run([
      ...prefix,
      join(bins.dir, 'pg_ctl'),
      '-D',
      data,
      '-w',
      ...(action === 'start' ? ['-l', `${data}.log`, '-o', `-c listen_addresses='' -k ${base} -p ${port} -c fsync=off`, 'start'] : ['-m', 'fast', 'stop']),
    ]);
  run([...prefix, join(bins.dir, 'initdb'), '-D', primaryData, '-A', 'trust', '-U', 'postgres', '--no-sync']);
  ctl(primaryData, 5432, 'start');
  run([...prefix, join(bins.dir, 'pg_basebackup'), '-h', base, '-p', '5432', '-U', 'postgres', '-D', replicaData, '-R', '-X', 'stream', '--no-sync']);
  ctl(replicaData, 5433, 'start');
  process.env.MNEMO_INDEX_CACHE_DIR ??= join(base, 'index-cache');
  const url = (port: number) => `postgres://postgres@/postgres?host=${encodeURIComponent(base)}&port=${port}`;
  let up = { primary: true, replica: true };
  let stopped = false;
  return {
    primaryUrl: url(5432),
    replicaUrl: url(5433),
    stopPrimary: () => (ctl(primaryData, 5432, 'stop'), (up = { ...up, primary: false })),
    startPrimary: () => (ctl(primaryData, 5432, 'start'), (up = { ...up, primary: true })),
    stopReplica: () => (ctl(replicaData, 5433, 'stop'), (up = { ...up, replica: false })),
    startReplica: () => (ctl(replicaData, 5433, 'start'), (up = { ...up, replica: true })),
    stop() {
      if (stopped) return;
      stopped = true;
      try {
        if (up.replica) ctl(replicaData, 5433, 'stop');
      } finally {
        try {
          if (up.primary) ctl(primaryData, 5432, 'stop');
        } finally {
          rmSync(base, { recursive: true, force: true });
        }
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
