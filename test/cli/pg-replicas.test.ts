/**
 * Read replicas against a real primary and a real streaming standby (`pg_basebackup -R` beside a
 * throwaway primary: support/pg-cluster.ts, startReplicatedPg). CI installs PostgreSQL's server
 * (.ci/run), so these run there; without the binaries they skip, saying why.
 *
 * What could go wrong: a read sent to the standby that does not fit it (a temporary function, a
 * session table), a write or an access event sent to it (refused there, or lost), a session that
 * does not see its own write because the standby has not replayed it yet, a read that hangs or
 * fails while one server is down, reads that never go back to a replica once it is up again.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../../core/api/service.js';
import { ApiSession } from '../../core/api/context.js';
import { copyStore } from '../../core/store/copy/copy-stores.js';
import { SyncPg } from '../../core/store/pg/sync-pg.js';
import { freshSchemaUrl, replicationUnavailable, startReplicatedPg, type PgReplicatedServers } from '../../support/pg-cluster.js';
import { expected, fixtureFileCopy } from '../../support/fixture.js';
import { runCli } from '../helpers/cli.js';

interface Call {
  query: string;
  k: number;
  hops: number;
  owner: string | null;
}

const unavailable = replicationUnavailable();
const now = Number(expected().now);
const calls: Call[] = [...(expected().explain as Call[]), ...(expected().explain_full as Call[])];

let servers: PgReplicatedServers | null = null;
let sqlite = '';
let primary = '';
let replica = '';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Waits until the standby has replayed everything the primary has written so far. */
async function replayed(): Promise<void> {
  const p = SyncPg.connect(servers!.primaryUrl);
  const r = SyncPg.connect(servers!.replicaUrl);
  try {
    const [{ lsn }] = p.query<{ lsn: string }>('SELECT pg_current_wal_lsn()::text AS lsn') as [{ lsn: string }];
    for (let i = 0; i < 600; i++) {
      const [row] = r.query<{ ok: boolean }>('SELECT pg_last_wal_replay_lsn() >= $1::pg_lsn AS ok', [lsn]);
      if (row?.ok) return;
      await sleep(50);
    }
    throw new Error(`the standby did not replay ${lsn} within 30 s`);
  } finally {
    p.close();
    r.close();
  }
}

function onPrimary<T extends Record<string, unknown>>(sql: string, params: unknown[] = []): T[] {
  const p = SyncPg.connect(servers!.primaryUrl);
  try {
    return p.query<T>(sql, params);
  } finally {
    p.close();
  }
}

function explainArgs(db: string, c: Call): string[] {
  return ['explain', db, c.query, '--k', String(c.k), '--hops', String(c.hops), ...(c.owner !== null ? ['--owner', c.owner] : []), '--profile', 'nooa-0.0.9', '--now', String(now), '--json'];
}

/** A session on the primary reading from the standby, its warnings kept. */
function replicaSession(warnings: string[] = [], clock = { now: () => now }): ApiSession {
  const session = new ApiSession({ clock, reader: { owner: 'cli', session_ref: null }, engineOptions: { replicas: [replica], onWarning: (m) => warnings.push(m) } });
  session.open(primary);
  return session;
}

async function replicaState(session: ApiSession) {
  const { replicas } = await call(session, 'store.replicas', {});
  expect(replicas).toHaveLength(1);
  return replicas[0]!;
}

beforeAll(async () => {
  if (unavailable) return;
  servers = startReplicatedPg();
  sqlite = fixtureFileCopy();
  primary = freshSchemaUrl(servers.primaryUrl, 'replicated');
  copyStore(sqlite, primary);
  // The standby's URL names no schema: it takes the store's.
  replica = servers.replicaUrl;
  await replayed();
}, 180_000);

afterAll(() => {
  servers?.stop();
});

/** The instant the time-travel test reads the store at (after its first write, before its others), and the list it saw then. */
let pastAt = 0;
let pastList: unknown = null;

describe.skipIf(unavailable)('read replicas: a real primary and a streaming standby', () => {
  it(`explain through a replica answers exactly what explain answers on the SQLite original, for all ${calls.length} recorded calls`, async () => {
    // Through the API, one session a side (the CLI opening the store 340 times took minutes of CI): the CLI's --json prints these rows.
    const onSqlite = new ApiSession({ clock: { now: () => now }, reader: { owner: 'cli', session_ref: null }, engineOptions: { onWarning: () => {} } });
    onSqlite.open(sqlite, { readonly: true });
    const warnings: string[] = [];
    const onReplica = new ApiSession({ clock: { now: () => now }, reader: { owner: 'cli', session_ref: null }, engineOptions: { replicas: [replica], onWarning: (m) => warnings.push(m) } });
    onReplica.open(primary, { readonly: true });
    try {
      let rows = 0;
      for (const c of calls) {
        const input = { query: c.query, k: c.k, hops: c.hops, profile: 'nooa-0.0.9', ...(c.owner !== null ? { owner: c.owner } : {}) };
        const a = await call(onSqlite, 'recall.explain', input);
        const b = await call(onReplica, 'recall.explain', input);
        expect(JSON.stringify(b.rows), `${c.query} (k ${c.k}, hops ${c.hops}, owner ${c.owner})`).toBe(JSON.stringify(a.rows));
        rows += a.rows.length;
      }
      expect(rows).toBeGreaterThan(calls.length);
      // The standby answered them: none went to the primary.
      const state = await replicaState(onReplica);
      expect(state.served).toBeGreaterThan(0);
      expect(state.fell_back).toBe(0);
      expect(warnings).toEqual([]);
    } finally {
      onSqlite.close();
      onReplica.close();
    }
    // And the command line's --replica prints what it prints on the SQLite original.
    for (const c of calls.slice(0, 3)) {
      const cliSqlite = await runCli(explainArgs(sqlite, c));
      const cliReplica = await runCli([...explainArgs(primary, c), '--replica', replica]);
      expect(cliReplica.code, `${c.query}: ${cliReplica.stderr}`).toBe(0);
      expect(cliReplica.stdout).toBe(cliSqlite.stdout);
    }
  }, 120_000);

  it("a session's reads go to the standby, and the API shows its lag", async () => {
    const session = replicaSession();
    try {
      const before = await replicaState(session);
      const listed = await call(session, 'memory.list', { limit: 5 });
      expect(listed.rows).toHaveLength(5);
      const after = await replicaState(session);
      expect(after.state).toBe('streaming');
      expect(after.served).toBeGreaterThan(before.served);
      expect(after.fell_back).toBe(0);
      expect(after.lag_bytes).not.toBeNull();
      expect(after.lag_seconds).not.toBeNull();
      expect(after.url).toContain('port=5433');
    } finally {
      session.close();
    }
  });

  it("recall's access events land on the primary (the standby replays them)", async () => {
    // The fixture is a nooa store: its first Mnemo write also backfills its rings' accesses (backfilled = 1), which are not recall's.
    const count = () => Number(onPrimary<{ n: string }>('SELECT count(*)::text AS n FROM replicated.mnemo_access_events WHERE backfilled = 0')[0]!.n);
    const before = count();
    const res = await runCli(['recall', primary, 'deploy service', '--k', '5', '--replica', replica, '--now', String(now), '--json']);
    expect(res.code, res.stderr).toBe(0);
    const ids = (res.json() as { id: string }[]).map((r) => r.id);
    expect(ids.length).toBeGreaterThan(0);
    expect(count()).toBe(before + ids.length);
    const logged = onPrimary<{ memory_id: string }>('SELECT memory_id FROM replicated.mnemo_access_events ORDER BY id DESC LIMIT $1', [ids.length]).map((r) => r.memory_id);
    expect(new Set(logged)).toEqual(new Set(ids));
    await replayed();
    const onStandby = SyncPg.connect(servers!.replicaUrl);
    try {
      expect(Number(onStandby.query<{ n: string }>('SELECT count(*)::text AS n FROM replicated.mnemo_access_events WHERE backfilled = 0')[0]!.n)).toBe(before + ids.length);
    } finally {
      onStandby.close();
    }
  });

  it('a session reads its own write at once: from the standby once it has replayed it, else from the primary', async () => {
    const warnings: string[] = [];
    const session = replicaSession(warnings);
    try {
      // Replay running: the read waits for the standby to replay the write, and is served there.
      const first = await call(session, 'memory.add', { content: 'replica read-your-writes one' });
      const before = await replicaState(session);
      const got = await call(session, 'memory.get', { id: first.id });
      expect(got.memory.content).toBe('replica read-your-writes one');
      const served = await replicaState(session);
      expect(served.served).toBeGreaterThan(before.served);
      expect(served.fell_back).toBe(before.fell_back);

      // Replay paused: the standby never gets there within the wait, so the read goes to the primary, and still sees the write.
      const standby = SyncPg.connect(servers!.replicaUrl);
      standby.query('SELECT pg_wal_replay_pause()');
      try {
        const second = await call(session, 'memory.add', { content: 'replica read-your-writes two' });
        const t0 = Date.now();
        const again = await call(session, 'memory.get', { id: second.id });
        expect(again.memory.content).toBe('replica read-your-writes two');
        // One wait of the bound (1 s by default), not one per statement of the read.
        expect(Date.now() - t0).toBeLessThan(5_000);
        const behind = await replicaState(session);
        expect(behind.state).toBe('behind');
        expect(behind.fell_back).toBeGreaterThan(served.fell_back);
        expect(behind.lag_bytes).toBeGreaterThan(0);
        expect(warnings.some((w) => w.includes('had not replayed this session') && w.includes('reads go to the primary'))).toBe(true);
      } finally {
        standby.query('SELECT pg_wal_replay_resume()');
        standby.close();
      }
      await replayed();
      const listed = await call(session, 'memory.list', { limit: 3 });
      expect(listed.rows.length).toBe(3);
      const back = await replicaState(session);
      expect(back.state).toBe('streaming');
      expect(back.served).toBeGreaterThan(served.served);
    } finally {
      session.close();
    }
  });

  it('time travel reads the standby, and shows what the primary shows', async () => {
    let t = now + 10_000;
    const clock = { now: () => t };
    const warnings: string[] = [];
    const session = replicaSession(warnings, clock);
    const onPrimaryOnly = new ApiSession({ clock, reader: { owner: 'cli', session_ref: null } });
    onPrimaryOnly.open(primary);
    try {
      const added = await call(session, 'memory.add', { content: 'written before the instant' });
      t += 100;
      const at = t;
      t += 100;
      await call(session, 'memory.update', { id: added.id, patch: { content: 'rewritten after the instant' } });
      await call(session, 'memory.add', { content: 'added after the instant' });
      await replayed();
      const then = await call(session, 'memory.get', { id: added.id, at });
      expect(then.memory.content).toBe('written before the instant');
      const list = await call(session, 'memory.list', { limit: 50, at, text: 'instant' });
      expect(list.rows.map((r) => r.id)).toEqual([added.id]);
      const same = await call(onPrimaryOnly, 'memory.list', { limit: 50, at, text: 'instant' });
      expect(list).toEqual(same);
      const graph = await call(session, 'graph.view', { limit: 200, at });
      expect(graph).toEqual(await call(onPrimaryOnly, 'graph.view', { limit: 200, at }));
      // Read on the standby: the store opened as of the instant found one to read there.
      expect(warnings.filter((w) => w.includes('time travel reads the primary'))).toEqual([]);
      pastAt = at;
      pastList = list;
    } finally {
      session.close();
      onPrimaryOnly.close();
    }
  });

  it('with the primary stopped, explain still answers from the standby and a write fails at once naming the primary', async () => {
    const warnings: string[] = [];
    const session = replicaSession(warnings);
    const listedBefore = await call(session, 'memory.list', { limit: 20 });
    // What explain prints now (the tests above wrote to the store, so no longer the SQLite original's).
    const printed: string[] = [];
    for (const c of calls.slice(0, 3)) printed.push((await runCli(explainArgs(primary, c))).stdout);
    await replayed();
    servers!.stopPrimary();
    try {
      // A new process: it opens the store with the primary down.
      for (const [i, c] of calls.slice(0, 3).entries()) {
        const onReplica = await runCli([...explainArgs(primary, c), '--replica', replica]);
        expect(onReplica.code, onReplica.stderr).toBe(0);
        expect(onReplica.stdout).toBe(printed[i]);
      }
      // The open session goes on reading, the present and the past.
      expect(await call(session, 'memory.list', { limit: 20 })).toEqual(listedBefore);
      const later = replicaSession([], { now: () => pastAt + 10_000 });
      try {
        expect(await call(later, 'memory.list', { limit: 50, at: pastAt, text: 'instant' })).toEqual(pastList);
      } finally {
        later.close();
      }
      // Writes: refused at once, naming the primary, from the open session and from a new process.
      const t0 = Date.now();
      await expect(call(session, 'memory.add', { content: 'while the primary is down' })).rejects.toMatchObject({ code: 'busy', details: { reason: 'primary_unavailable' } });
      await expect(call(session, 'memory.add', { content: 'while the primary is down' })).rejects.toThrow(/PostgreSQL primary .*port=5432.* (cannot be reached|lost its connection)/);
      expect(Date.now() - t0).toBeLessThan(5_000);
      process.env['MNEMO_PG_REPLICAS'] = replica;
      try {
        const t1 = Date.now();
        const add = await runCli(['add', primary, 'while the primary is down']);
        expect(add.code).toBe(1);
        expect(add.stderr).toMatch(/the PostgreSQL primary postgres:\/\/\S*port=5432\S* cannot be reached/);
        expect(add.stderr).toContain('nothing was written');
        expect(Date.now() - t1).toBeLessThan(10_000);
      } finally {
        delete process.env['MNEMO_PG_REPLICAS'];
      }
      // Without replicas a store cannot open at all; the error names the server.
      const alone = await runCli(['list', primary, '--limit', '1']);
      expect(alone.code).not.toBe(0);
      expect(alone.stderr).toMatch(/cannot connect to PostgreSQL at postgres:\/\/\S*port=5432/);
    } finally {
      servers!.startPrimary();
    }
    // Back: the open session writes again.
    await sleep(1_100);
    const written = await call(session, 'memory.add', { content: 'after the primary came back' });
    expect((await call(session, 'memory.get', { id: written.id })).memory.content).toBe('after the primary came back');
    session.close();
  }, 120_000);

  it('with the standby stopped, reads fall back to the primary with a warning, and go back to it once it is up', async () => {
    await replayed();
    const warnings: string[] = [];
    const session = replicaSession(warnings);
    try {
      const expectedList = await call(session, 'memory.list', { limit: 10 });
      const printed = (await runCli(explainArgs(primary, calls[0]!))).stdout;
      servers!.stopReplica();
      try {
        const t0 = Date.now();
        expect(await call(session, 'memory.list', { limit: 10 })).toEqual(expectedList);
        expect(Date.now() - t0).toBeLessThan(5_000);
        expect(warnings.some((w) => w.includes('cannot be read') && w.includes('reads go to the primary'))).toBe(true);
        const res = await runCli([...explainArgs(primary, calls[0]!), '--replica', replica]);
        expect(res.code, res.stderr).toBe(0);
        expect(res.stdout).toBe(printed);
        expect(res.stderr).toContain('cannot be read');
        const down = await replicaState(session);
        expect(down.state).toBe('down');
        expect(down.error).toBeTruthy();
      } finally {
        servers!.startReplica();
      }
      await replayed();
      // Set aside for a second after the failure, then tried again.
      await sleep(2_100);
      const before = (await replicaState(session)).served;
      expect(await call(session, 'memory.list', { limit: 10 })).toEqual(expectedList);
      const back = await replicaState(session);
      expect(back.state).toBe('streaming');
      expect(back.served).toBeGreaterThan(before);
      expect(warnings.some((w) => w.includes('answers again'))).toBe(true);
    } finally {
      session.close();
    }
  }, 120_000);

  it('a replica URL naming another schema, or given for a SQLite store, is refused naming it', async () => {
    const other = await runCli(['list', primary, '--replica', `${replica}&schema=elsewhere`]);
    expect(other.code).toBe(2);
    expect(other.stderr).toContain('names schema "elsewhere", but the store is schema replicated');
    const onFile = await runCli(['list', sqlite, '--replica', replica]);
    expect(onFile.code).toBe(2);
    expect(onFile.stderr).toContain('is a SQLite file: read replicas (--replica) are PostgreSQL standbys');
  });
});
