/**
 * The attacks of issue #36 on an agent's own database role (`mnemo pg grant coder@1`), each sent as
 * raw SQL over the role's own connection to a real PostgreSQL server: whatever it sends, it cannot
 * change or delete another owner's row, change a shared row without a journal entry, change a
 * store-wide setting, read or forge another reader's access events, or make a later operator
 * action destroy data. Each test states the victim's state afterwards, whatever the attack
 * statement did (refused, or allowed and then undone at commit), so it holds for any design that
 * keeps the promise. The last tests are the other side: what an agent does through the engine
 * still works on the same role.
 *
 * What could go wrong: a privilege or policy that lets a statement through, a marker or a forged
 * journal image that a later operator action trusts, a check an agent can switch off (SET
 * CONSTRAINTS), the engine's own writes refused by the checks that refuse raw SQL.
 */
import { spawnSync } from 'node:child_process';
import { hostname } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixedClock } from '../../core/clock.js';
import type { MnemoError } from '../../core/errors.js';
import { exportJsonl } from '../../core/engine/jsonl.js';
import { addMemory } from '../../core/engine/memory-ops.js';
import { issueCredential, listCredentials, openStore, type AgentMemory } from '../../core/index.js';
import { ApiSession } from '../../core/api/context.js';
import { call } from '../../core/api/service.js';
import { grantAgent } from '../../core/store/pg/pg-grant.js';
import { GUARD_DDL_LEVEL } from '../../core/store/pg/pg-store-guards.js';
import { PgStore } from '../../core/store/pg/pg-store.js';
import { parsePgStoreUrl } from '../../core/store/pg/pg-url.js';
import { SyncPg } from '../../core/store/pg/sync-pg.js';
import { pgUnavailable, startPg, type PgServer } from '../../support/pg-cluster.js';
import { connectInProcess } from '../helpers/mcp.js';
import { errorOf } from '../helpers/mnemo-error.js';

const SCHEMA = 'agent_attacks';
const T0 = 1_750_000_000;
const CONFIDENTIAL = 'writer confidential query about acquiring ACME corp in Q3';
const unavailable = pgUnavailable();


/** A process id that no running process has (a child that has exited). */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  return Number(child.stdout);
}

describe.skipIf(unavailable)("an agent's database role, attacking with raw SQL, hurts no one else", () => {
  let server: PgServer;
  let storeUrl = '';
  let agentUrl = '';
  let operator: SyncPg;
  let agent: SyncPg;
  const ids = { own: [] as string[], shared: [] as string[] };
  let writerCredential = '';
  const t = (name: string) => `${SCHEMA}.${name}`;
  const open = (url: string, owner: string, at = T0) => openStore(url, { owner, clock: fixedClock(at), session: `test-${owner}`, onWarning: () => {} });
  /** Runs statements as the agent in one transaction; the error that ended it, or null when it committed. */
  const asAgent = (...statements: [string, unknown[]?][]) =>
    errorOf(() =>
      agent.transaction(() => {
        for (const [sql, params] of statements) agent.query(sql, params ?? []);
      }),
    );
  const memory = (id: string) => operator.query<{ owner: string; content: string; archived: string; data: string }>(`SELECT owner, content, archived, data, access_count, strength FROM ${t('memories')} WHERE id = $1`, [id])[0];
  /** A memory's data as the agent's role may read it: the table's column, or the view it is given instead. */
  const agentData = (id: string): string => {
    const direct = `SELECT data FROM ${t('memories')} WHERE id = $1`;
    const refused = errorOf(() => agent.query(direct, [id]));
    const sql = refused?.details?.['sqlstate'] === '42501' ? `SELECT data FROM ${t('mnemo_agent_memories')} WHERE id = $1` : direct;
    return agent.query<{ data: string }>(sql, [id])[0]!.data;
  };
  const journalSize = () => Number(operator.query<{ n: string }>(`SELECT count(*) AS n FROM ${t('mnemo_journal')}`)[0]!.n);

  beforeAll(async () => {
    server = startPg();
    storeUrl = `${server.url}${server.url.includes('?') ? '&' : '?'}schema=${SCHEMA}`;
    operator = SyncPg.connect(server.url);
    operator.query(`DROP SCHEMA IF EXISTS ${SCHEMA} CASCADE`);
    // The writer's store: its own memories, shared ones, an edge from a shared memory to its own,
    // and a recall of the shared ones under its credential with a confidential query.
    const setup = open(storeUrl, 'writer@1');
    for (let i = 0; i < 3; i++) ids.own.push((await setup.remember({ content: `the writer's private plan number ${i} for the ACME acquisition` })).id);
    for (let i = 0; i < 5; i++) ids.shared.push((await addMemory(setup.engine, { content: `a shared runbook page ${i} about deploying the ACME services`, owner: '' })).id);
    expect(setup.associate(ids.shared[0]!, ids.own[0]!).changed).toBe(true);
    expect(setup.associate(ids.shared[0]!, ids.shared[1]!).changed).toBe(true);
    writerCredential = issueCredential(setup.engine.store as PgStore, { owner: 'writer@1', label: 'writer' }, fixedClock(T0)).credential.id;
    setup.close();
    const credentialRow = operator.query<{ id: string; owner: string; scopes: string; label: string; created_at: number; revoked_at: number | null }>(`SELECT id, owner, scopes, label, created_at, revoked_at FROM ${t('mnemo_agent_credentials')} WHERE id = $1`, [writerCredential])[0]!;
    const writer = openStore(storeUrl, { credential: { ...credentialRow, scopes: JSON.parse(credentialRow.scopes) as [] }, clock: fixedClock(T0 + 5), session: 'writer-cred', onWarning: () => {} });
    expect((await writer.recall(CONFIDENTIAL)).length).toBeGreaterThan(0);
    writer.close();
    agentUrl = grantAgent(storeUrl, 'coder@1').url;
    agent = SyncPg.connect(parsePgStoreUrl(agentUrl).connection);
  }, 120_000);

  afterAll(() => {
    agent?.close();
    operator?.close();
    server?.stop();
  });

  describe('run markers and settings', () => {
    it("a run marker it plants does not make the operator's next write delete another owner's memory", async () => {
      const [addOfOwn] = operator.query<{ id: string }>(`SELECT id FROM ${t('mnemo_journal')} WHERE label LIKE $1 ORDER BY id LIMIT 1`, [`%${ids.own[1]!.slice(0, 8)}%`]);
      expect(addOfOwn).toBeDefined();
      const marker = { change_id: Number(addOfOwn!.id), mode: 'record', label: 'planted', pid: deadPid(), host: hostname(), started_at: T0, cursor: null };
      asAgent([`INSERT INTO ${t('mnemo_meta')}(key, value) VALUES ('journal_run', $1)`, [JSON.stringify(marker)]]);
      const ops = open(storeUrl, 'ops@1', T0 + 60);
      try {
        await ops.remember({ content: 'the operator adds a note after the agent' });
      } finally {
        ops.close();
      }
      expect(memory(ids.own[1]!), "the writer's memory after the operator's next write").toBeDefined();
      expect(operator.query(`SELECT 1 FROM ${t('mnemo_journal')} WHERE id = $1`, [addOfOwn!.id]), "the writer's change in the journal").toHaveLength(1);
      operator.query(`DELETE FROM ${t('mnemo_meta')} WHERE key = 'journal_run'`);
    });

    it("a run marker naming another host leaves the operator's undo free", async () => {
      const marker = { change_id: 1, mode: 'record', label: 'planted', pid: 1, host: 'elsewhere.example', started_at: T0, cursor: null };
      asAgent([`INSERT INTO ${t('mnemo_meta')}(key, value) VALUES ('journal_run', $1)`, [JSON.stringify(marker)]]);
      const store = PgStore.open(storeUrl, { clock: fixedClock(T0 + 70), onWarning: () => {} });
      try {
        const [latest] = store.journal.history(1);
        let undo: MnemoError | null = null;
        await store.runs.replayInBatches({ undo: latest!.id }).catch((err: unknown) => (undo = err as MnemoError));
        expect((undo as MnemoError | null)?.message ?? null, 'the operator undoing its latest change (in batches, as the workbench does)').toBeNull();
        await store.runs.replayInBatches({ redo: latest!.id });
      } finally {
        store.close();
        operator.query(`DELETE FROM ${t('mnemo_meta')} WHERE key = 'journal_run'`);
      }
    });

    it("an ingest marker it plants does not make the operator's next open delete the belief log", () => {
      const insert = `INSERT INTO ${t('mnemo_deltas')}(entity, attribute, observed_entity, value, t, epsilon, prior, posterior, surprise, recorded_at) VALUES ($1, 'status', $1, '"done"', $2, 0.1, '{}', '{}', 0, $2)`;
      for (let i = 0; i < 3; i++) operator.query(insert, [`project-${i}`, T0 + i]);
      const deltas = () => Number(operator.query<{ n: string }>(`SELECT count(*) AS n FROM ${t('mnemo_deltas')}`)[0]!.n);
      const before = deltas();
      const marker = { pid: deadPid(), host: hostname(), started_at: T0, ranges: [[1, 1_000_000_000]] };
      asAgent([`INSERT INTO ${t('mnemo_meta')}(key, value) VALUES ('beliefs_ingest_run', $1)`, [JSON.stringify(marker)]]);
      PgStore.open(storeUrl, { clock: fixedClock(T0 + 80), onWarning: () => {} }).close();
      expect(deltas(), 'belief deltas after the operator opened the store').toBe(before);
      operator.query(`DELETE FROM ${t('mnemo_meta')} WHERE key = 'beliefs_ingest_run'`);
    });

    it('cannot change a store-wide setting: the embedder, the profile, feed retention', async () => {
      const settings = () => Object.fromEntries(operator.query<{ key: string; value: string }>(`SELECT key, value FROM ${t('mnemo_meta')} ORDER BY key`).map((r) => [r.key, r.value]));
      const before = settings();
      asAgent([`UPDATE ${t('mnemo_meta')} SET value = 'hashing-999999999' WHERE key = 'embedder'`]);
      asAgent([`UPDATE ${t('mnemo_meta')} SET value = 'no-such-profile' WHERE key = 'profile'`]);
      asAgent([`INSERT INTO ${t('mnemo_meta')}(key, value) VALUES ('feed_retention_days', '0') ON CONFLICT (key) DO UPDATE SET value = excluded.value`]);
      asAgent([`DELETE FROM ${t('mnemo_meta')} WHERE key = 'created_at'`]);
      const after = settings();
      const ops = errorOf(() => open(storeUrl, 'ops@1', T0 + 90).close());
      // Put back what the agent changed (by the operator, raw), so the tests after this one start from the same store.
      operator.query(`DELETE FROM ${t('mnemo_meta')}`);
      for (const [key, value] of Object.entries(before)) operator.query(`INSERT INTO ${t('mnemo_meta')}(key, value) VALUES ($1, $2)`, [key, value]);
      expect(after, 'the store settings after the agent').toEqual(before);
      expect(ops?.message ?? null, 'the operator opening the store after the agent').toBeNull();
    });

    it('a bad setting value is refused where it is written, even by the operator', () => {
      const setting = (key: string) => operator.query<{ value: string }>(`SELECT value FROM ${t('mnemo_meta')} WHERE key = $1`, [key])[0]?.value ?? null;
      const write = (key: string, value: string) => errorOf(() => operator.query(`INSERT INTO ${t('mnemo_meta')}(key, value) VALUES ($1, $2) ON CONFLICT (key) DO UPDATE SET value = excluded.value`, [key, value]));
      const cases = [
        ['embedder', 'hashing-999999999'],
        ['profile', 'no-such-profile'],
        ['beliefs_config', '{not json'],
        ['feed_retention_days', '-1'],
      ] as const;
      const found: Record<string, string> = {};
      for (const [key, value] of cases) {
        const before = setting(key);
        found[key] = write(key, value)?.message ?? 'accepted';
        // Put back what was accepted, so the tests after this one start from the same store.
        if (before === null) operator.query(`DELETE FROM ${t('mnemo_meta')} WHERE key = $1`, [key]);
        else operator.query(`UPDATE ${t('mnemo_meta')} SET value = $2 WHERE key = $1`, [key, before]);
      }
      for (const [key, value] of cases) expect(found[key], `${key} = ${value}`).toMatch(new RegExp(`${key}.*${value.replace(/[{]/g, '\\{')}|${key}`));
      expect(write('embedder', 'hashing-256')).toBeNull();
    });
  });

  describe('access events', () => {
    it("reads no other reader's access events or queries", () => {
      const foreign = agent.query<{ n: string; q: string }>(`SELECT count(*) AS n, count(query) AS q FROM ${t('mnemo_access_events')} WHERE reader_owner NOT LIKE 'coder%'`)[0]!;
      expect({ events: Number(foreign.n), queries: Number(foreign.q) }, "other readers' events the agent reads").toEqual({ events: 0, queries: 0 });
      expect(agent.query(`SELECT 1 FROM ${t('mnemo_access_events')} WHERE query = $1`, [CONFIDENTIAL]), 'the confidential query').toEqual([]);
    });

    it("writes no access event in another reader's or credential's name, and deletes none", () => {
      const events = () => Number(operator.query<{ n: string }>(`SELECT count(*) AS n FROM ${t('mnemo_access_events')}`)[0]!.n);
      const credited = () => listCredentials(opsStore()).find((c) => c.id === writerCredential)!.accesses;
      let store: PgStore | null = null;
      const opsStore = () => (store ??= PgStore.open(storeUrl, { readonly: true }));
      try {
        const before = { events: events(), credited: credited() };
        const forge = `INSERT INTO ${t('mnemo_access_events')}(memory_id, ts, channel, reader_owner, query, reinforce, backfilled, credential_id) VALUES ($1, $2, 'recalled', $3, 'forged', 1, 0, $4)`;
        asAgent([forge, [ids.shared[1], T0 + 100, 'writer@1', writerCredential]]);
        asAgent([forge, [ids.shared[1], T0 + 100, 'coder@1', writerCredential]]);
        asAgent([forge, [ids.shared[1], T0 + 100, '', writerCredential]]);
        asAgent([`DELETE FROM ${t('mnemo_access_events')}`]);
        asAgent([`UPDATE ${t('mnemo_access_events')} SET reader_owner = 'coder@1', credential_id = NULL`]);
        expect({ events: events(), credited: credited() }, 'events, and the writer credential’s accesses, after the agent').toEqual(before);
      } finally {
        (store as PgStore | null)?.close();
      }
    });
  });

  describe('edges and shared memories', () => {
    it("reads no other owner's memory id through an edge", () => {
      const seen = agent.query<{ dst: string }>(`SELECT dst FROM ${t('memory_edges')} WHERE src = $1`, [ids.shared[0]]).map((r) => r.dst);
      expect(seen, 'targets of the shared memory’s edges the agent reads').not.toContain(ids.own[0]);
      expect(agent.query(`SELECT 1 FROM ${t('memory_edges')} WHERE dst = $1 OR src = $1`, [ids.own[0]])).toEqual([]);
    });

    it('deletes no edge of a shared memory without a journal entry', () => {
      const edges = () => operator.query(`SELECT src, dst, type FROM ${t('memory_edges')} WHERE src = $1 ORDER BY rowid`, [ids.shared[0]]);
      const before = { edges: edges(), journal: journalSize() };
      asAgent([`DELETE FROM ${t('memory_edges')} WHERE src = $1`, [ids.shared[0]]]);
      asAgent([`DELETE FROM ${t('memory_edges')}`]);
      expect({ edges: edges(), journal: journalSize() }, 'the shared memory’s edges after the agent').toEqual(before);
    });

    it('re-owns, edits or deletes no shared memory without a journal entry', () => {
      const target = ids.shared[2]!;
      const before = { row: memory(target), journal: journalSize() };
      asAgent([`UPDATE ${t('memories')} SET owner = 'coder@1' WHERE id = $1`, [target]]);
      asAgent([`UPDATE ${t('memories')} SET content = 'rewritten by the agent' WHERE id = $1`, [target]]);
      asAgent([`DELETE FROM ${t('memories')} WHERE id = $1`, [target]]);
      // Checks deferred to the commit are made now by the agent's own choice: that must not skip them.
      asAgent(['SET CONSTRAINTS ALL IMMEDIATE'], [`UPDATE ${t('memories')} SET content = 'rewritten, constraints immediate' WHERE id = $1`, [target]]);
      expect({ row: memory(target), journal: journalSize() }, 'the shared memory after the agent').toEqual(before);
    });

    it("forges no access in the shared memory's ring in another reader's name, and wipes none of it", () => {
      const target = ids.shared[3]!;
      const before = memory(target);
      const forged = JSON.stringify({ ts: T0 + 200, channel: 'recalled', reader_owner: 'writer@1', session_ref: null, trace_ref: null, query: 'forged', score: 1, rank: 1, components: null });
      asAgent([
        `UPDATE ${t('memories')} SET access_count = access_count + 1, data = jsonb_set(data::jsonb, '{access_log}', (data::jsonb -> 'access_log') || $2::jsonb)::text WHERE id = $1`,
        [target, `[${forged}]`],
      ]);
      asAgent([`UPDATE ${t('memories')} SET data = jsonb_set(data::jsonb, '{access_log}', '[]'::jsonb)::text WHERE id = $1`, [target]]);
      asAgent([`UPDATE ${t('memories')} SET access_count = access_count + 50, strength = strength + 50 WHERE id = $1`, [target]]);
      // The same, written blind from the data the role may read.
      const seen = JSON.parse(agentData(target)) as { access_log: unknown[] };
      const write = (data: object) => asAgent([`UPDATE ${t('memories')} SET access_count = access_count + 1, data = $2 WHERE id = $1`, [target, JSON.stringify(data)]]);
      write({ ...seen, access_log: [...seen.access_log, JSON.parse(forged)] });
      write({ ...seen, access_log: [] });
      expect(memory(target), 'the shared memory’s ring after the agent').toEqual(before);
    });

    it('a journal entry it forges cannot make the operator’s undo delete or rewrite a shared memory', () => {
      const target = ids.shared[4]!;
      const before = memory(target);
      const image = JSON.stringify({ rowid: 1, row: { id: target, type: 'info', content: 'planted by the agent', importance: 0.5, salience: 0.5, strength: 1, created_at: T0, last_accessed: T0, access_count: 0, archived: 0, owner: '', status: null, data: '{}' }, embedding: null, edges: [] });
      const forge = (touch: boolean, befores: (string | null)[], afters: (string | null)[]) => {
        let changeId: number | null = null;
        const err = errorOf(() =>
          agent.transaction(() => {
            // A write that changes nothing, to stand as "the agent's change" of the row.
            if (touch) agent.query(`UPDATE ${t('memories')} SET importance = importance WHERE id = $1`, [target]);
            const [r] = agent.query<{ id: string }>(`SELECT nextval(pg_get_serial_sequence($1, 'id')) AS id`, [t('mnemo_journal')]);
            changeId = Number(r!.id);
            agent.query(`SELECT ${t('mnemo_agent_journal_write')}($1, $2, 'planted', 'memory.update', '{}', NULL, NULL, $3::text[], $4::text[], $5::text[])`, [r!.id, T0 + 300, [`m:${target}`], befores, afters]);
          }),
        );
        return err === null ? changeId : null;
      };
      const written = [forge(false, [null], [image]), forge(true, [null], [image]), forge(true, [image], [image])].filter((id) => id !== null) as number[];
      const store = PgStore.open(storeUrl, { clock: fixedClock(T0 + 310), onWarning: () => {} });
      try {
        for (const id of written.reverse()) errorOf(() => store.journal.undo(id));
      } finally {
        store.close();
      }
      expect(memory(target), 'the shared memory after the operator undid what the agent journalled').toEqual(before);
    });

    it("changes nothing of another owner's rows (row-level security, as before)", () => {
      const target = ids.own[2]!;
      const before = memory(target);
      asAgent([`UPDATE ${t('memories')} SET content = 'taken' WHERE id = $1`, [target]]);
      asAgent([`DELETE FROM ${t('memories')} WHERE id = $1`, [target]]);
      asAgent([`DELETE FROM ${t('mnemo_tombstones')}`]);
      expect(memory(target)).toEqual(before);
    });
  });

  /**
   * nooa's ring (`access_log` inside `data`) keeps a memory's last 64 accesses with who read it,
   * which session and which query. A shared memory's ring is every reader's: the agent must not read
   * writer@1's entries beyond what recall needs of them (their time and channel), by any SQL it may
   * send, nor through the engine's own views on its role.
   */
  describe("shared memories' rings", () => {
    const WRITER_SESSION = 'writer-cred';
    /** What gives another reader's entry away: its query, its session, its reader (no row the agent may see names writer@1 otherwise). */
    const secrets = [CONFIDENTIAL, WRITER_SESSION, 'writer@1'];
    const leaked = (text: string) => secrets.filter((s) => text.includes(s));
    const ringOf = (data: string) => (JSON.parse(data) as { access_log: Record<string, unknown>[] }).access_log;

    beforeAll(async () => {
      // A second recall by writer@1: the rings hold two of its entries with the query, and the
      // change feed's before-image of the second access holds the first.
      const credentialRow = operator.query<{ id: string; owner: string; scopes: string; label: string; created_at: number; revoked_at: number | null }>(`SELECT id, owner, scopes, label, created_at, revoked_at FROM ${t('mnemo_agent_credentials')} WHERE id = $1`, [writerCredential])[0]!;
      const writer = openStore(storeUrl, { credential: { ...credentialRow, scopes: JSON.parse(credentialRow.scopes) as [] }, clock: fixedClock(T0 + 6), session: WRITER_SESSION, onWarning: () => {} });
      try {
        expect((await writer.recall(CONFIDENTIAL, { k: 10 })).map((m) => m.id)).toEqual(expect.arrayContaining([ids.shared[1]]));
      } finally {
        writer.close();
      }
      expect(leaked(memory(ids.shared[1]!)!.data), 'the ring as the operator reads it').toContain(CONFIDENTIAL);
    });

    it("raw SQL: no table, view or column the role may read shows another reader's query, session or name", () => {
      // Every column of every table and view of the store's schema the role may read, whole.
      const readable = agent.query<{ rel: string; cols: string[] }>(
        `SELECT c.table_name AS rel, array_agg(c.column_name::text ORDER BY c.ordinal_position) AS cols FROM information_schema.columns c
          WHERE c.table_schema = $1 AND has_column_privilege(format('%I.%I', c.table_schema, c.table_name), c.column_name, 'SELECT') GROUP BY c.table_name ORDER BY c.table_name`,
        [SCHEMA],
      );
      expect(readable.map((r) => r.rel), 'what the role may read').toContain('memories');
      const found: Record<string, string[]> = {};
      for (const { rel, cols } of readable) {
        const text = JSON.stringify(agent.query(`SELECT ${cols.map((c) => `"${c}"`).join(', ')} FROM ${SCHEMA}."${rel}"`));
        if (leaked(text).length) found[rel] = leaked(text);
      }
      // And the statements an attacker would try first, each refused or without the secrets.
      for (const sql of [
        `SELECT data FROM ${t('memories')} WHERE id = ANY($1::text[])`,
        `SELECT m::text AS row FROM ${t('memories')} m WHERE id = ANY($1::text[])`,
        `SELECT old_data FROM ${t('mnemo_pg_feed')} WHERE memory_id = ANY($1::text[])`,
        `SELECT f::text AS row FROM ${t('mnemo_pg_feed')} f WHERE memory_id = ANY($1::text[])`,
      ]) {
        let text = '';
        const err = errorOf(() => void (text = JSON.stringify(agent.query(sql, [ids.shared]))));
        if (err && err.details?.['sqlstate'] !== '42501') throw err;
        if (leaked(text).length) found[sql] = leaked(text);
      }
      expect(found, "where the agent's role reads writer@1's entries").toEqual({});
    });

    it("cannot test a guess of another reader's entry by writing it: a right guess and a wrong one end the same", () => {
      const target = ids.shared[1]!;
      const stored = memory(target)!.data;
      const truth = ringOf(stored);
      const at = truth.findIndex((e) => e['reader_owner'] === 'writer@1');
      expect(at, "writer@1's entry in the ring").toBeGreaterThanOrEqual(0);
      const seen = JSON.parse(agentData(target)) as { access_log: unknown[] };
      const outcome = (query: string) => {
        const ring = [...seen.access_log];
        ring[at] = { ...truth[at], query };
        const err = asAgent([`UPDATE ${t('memories')} SET data = $2 WHERE id = $1`, [target, JSON.stringify({ ...seen, access_log: ring })]]);
        const after = ringOf(memory(target)!.data)[at];
        // Back as it was, whatever the write did, for the next guess.
        operator.query(`UPDATE ${t('memories')} SET data = $2 WHERE id = $1`, [target, stored]);
        return { refused: err !== null, entry: after };
      };
      const right = outcome(CONFIDENTIAL);
      const wrong = outcome('writer asks about the weather');
      expect(wrong, 'a wrong guess, against a right one').toEqual(right);
      expect(right.entry, "writer@1's entry after both").toEqual(truth[at]);
    });

    it("through the engine on its role: memory detail, usage, export, recall, MCP tools show no other reader's query; recency is the operator's", async () => {
      const at = T0 + 500;
      const target = ids.shared[1]!;
      const asOperator = new ApiSession({ clock: fixedClock(at), reader: { owner: 'coder@1', session_ref: 'ops' }, engineOptions: { onWarning: () => {} } });
      const asAgent = new ApiSession({ clock: fixedClock(at), reader: { owner: 'coder@1', session_ref: 'coder-api' }, engineOptions: { onWarning: () => {} } });
      asOperator.open(storeUrl, { readonly: true });
      asAgent.open(agentUrl, { readonly: true });
      const coder = open(agentUrl, 'coder@1', at);
      const mcp = await connectInProcess(coder);
      try {
        // Before anything below logs an access: both read the same rings.
        const detail = await call(asAgent, 'memory.get', { id: target });
        const operatorRing = (await call(asOperator, 'memory.get', { id: target })).memory.access_log;
        const explain = async (s: ApiSession) => new Map((await call(s, 'recall.explain', { query: 'shared runbook page about deploying ACME', k: 10, owner: 'coder@1' })).rows.map((r) => [r.id, r.rec]));
        const [mine, operators] = [await explain(asAgent), await explain(asOperator)];
        const views: Record<string, unknown> = {
          'memory.get': detail,
          'stats.usage': await call(asAgent, 'stats.usage', { ids: ids.shared }),
          'memory.list': await call(asAgent, 'memory.list', {}),
          'store.getMany': [...coder.engine.store.getMany(ids.shared).values()],
          export: [...exportJsonl(coder.engine)],
          recall: await coder.recall('deploying the ACME services', { k: 10 }),
          'mcp recall': await mcp.call('recall', { query: 'shared runbook page ACME', k: 10 }),
          'mcp search': await mcp.call('search', { query: 'shared runbook page ACME', k: 10 }),
          'mcp deref': await mcp.call('deref', { ref: `memory:${target}` }),
          'mcp stats': await mcp.call('stats', {}),
        };
        const found = Object.fromEntries(Object.entries(views).flatMap(([name, v]) => (leaked(JSON.stringify(v)).length ? [[name, leaked(JSON.stringify(v))]] : [])));
        expect(found, "where the engine on the agent's role shows writer@1's entries").toEqual({});
        // What recall needs of every reader's entries, their time and channel, the agent still reads.
        const timeAndChannel = (ring: { ts: number; channel: string }[]) => ring.map((e) => [e.ts, e.channel]);
        expect(timeAndChannel(detail.memory.access_log), 'times and channels of the ring the agent reads').toEqual(timeAndChannel(operatorRing));
        const shared = ids.shared.filter((id) => mine.has(id) && operators.has(id));
        expect(shared.length, 'shared memories both rank').toBeGreaterThan(0);
        expect(shared.map((id) => mine.get(id)), 'recency of shared memories, as the agent ranks them').toEqual(shared.map((id) => operators.get(id)));
      } finally {
        await mcp.close();
        coder.close();
        asAgent.close();
        asOperator.close();
      }
    });

    it("the agent's own recall records its access whole, and every other reader's entry stays as stored", async () => {
      const at = T0 + 700;
      const query = 'coder looks up the shared runbook page about deploying ACME';
      const target = ids.shared[1]!;
      const before = ringOf(memory(target)!.data);
      expect(before.some((e) => e['reader_owner'] === 'writer@1' && e['query'] === CONFIDENTIAL), "writer@1's entry before").toBe(true);
      const coder = openStore(agentUrl, { owner: 'coder@1', clock: fixedClock(at), session: 'coder-own-recall', onWarning: () => {} });
      try {
        expect((await coder.recall(query, { k: 10 })).map((m) => m.id), 'recalled on its role').toContain(target);
      } finally {
        coder.close();
      }
      const after = ringOf(memory(target)!.data);
      const mine = { ts: at, channel: 'recalled', reader_owner: 'coder@1', session_ref: 'coder-own-recall', query };
      // nooa keeps the last 64: the stored entries, as the operator reads them, then the agent's.
      expect(after.slice(0, -1), "the other readers' entries after the agent's recall").toEqual(before.slice(Math.max(0, before.length + 1 - 64)));
      expect(after.at(-1), "the agent's own entry").toMatchObject(mine);
      const events = operator.query(`SELECT reader_owner, session_ref, query FROM ${t('mnemo_access_events')} WHERE memory_id = $1 AND ts = $2`, [target, at]);
      expect(events, "the agent's access event").toEqual([{ reader_owner: 'coder@1', session_ref: 'coder-own-recall', query }]);
    });
  });

  describe('what the agent does through the engine still works on its role', () => {
    let coder: AgentMemory;
    beforeAll(() => {
      coder = open(agentUrl, 'coder@1', T0 + 1000);
    });
    afterAll(() => coder?.close());

    it('remember, recall (shared memories too), update, link, deref, forget, todos and intents', async () => {
      const before = journalSize();
      const a = await coder.remember({ content: 'the coder keeps build notes under the tools folder' });
      const b = await coder.remember({ content: 'integration tests of the ACME services need the staging database' });
      const recalled = await coder.recall('deploying the ACME services');
      expect(recalled.some((m) => m.owner === ''), 'shared memories recalled').toBe(true);
      expect(recalled.every((m) => m.owner === '' || m.owner.startsWith('coder'))).toBe(true);
      expect(await coder.updateMemory(a.id, { content: 'the coder keeps build notes in the tools folder' })).toBe(true);
      expect(coder.associate(a.id, b.id).changed).toBe(true);
      expect(coder.associate(a.id, ids.shared[1]!).changed).toBe(true);
      expect(coder.deref(`memory:${b.id}`)).toBeTruthy();
      // A read of a shared memory whose ring is full (nooa keeps the last 64): the oldest entry goes, the agent's comes in.
      const full = Array.from({ length: 64 }, (_, i) => ({ ts: T0 + i, channel: 'recalled', reader_owner: 'writer@1', session_ref: null, trace_ref: null, query: null, score: null, rank: null, components: null }));
      operator.query(`UPDATE ${t('memories')} SET data = jsonb_set(data::jsonb, '{access_log}', $2::jsonb)::text WHERE id = $1`, [ids.shared[1], JSON.stringify(full)]);
      expect(coder.deref(`memory:${ids.shared[1]}`)).toBeTruthy();
      const ring = (JSON.parse(memory(ids.shared[1]!)!.data) as { access_log: { reader_owner: string; ts: number }[] }).access_log;
      expect({ length: ring.length, first: ring[0]!.ts, last: ring[63]!.reader_owner }).toEqual({ length: 64, first: T0 + 1, last: 'coder@1' });
      expect(await coder.forget(b.id)).toBe(true);
      const todo = await coder.todoOpen({ content: 'rotate the staging credentials' });
      expect((await coder.todoClose(todo.id, 'done')).status).toBe('done');
      await coder.intentAdd({ content: 'remind me about the staging database', trigger: { kind: 'cue', cue: 'staging' } });
      expect((await coder.intentsDue({ message: 'the staging database is down' })).length).toBe(1);
      expect(coder.stats()).toBeTruthy();
      expect(journalSize(), 'changes journalled for the agent').toBeGreaterThanOrEqual(before + 7);
      // Recalls touched shared memories' usage (access bookkeeping, not a change) under the agent's name only.
      const readers = operator.query<{ reader_owner: string }>(`SELECT DISTINCT reader_owner FROM ${t('mnemo_access_events')} WHERE ts >= $1`, [T0 + 1000]).map((r) => r.reader_owner);
      expect(readers.every((r) => r === 'coder@1' || r === ''), `readers ${readers.join(', ')}`).toBe(true);
    });

    it('a reflection, which an agent’s role cannot journal, is refused with nothing written', async () => {
      const before = { journal: journalSize(), meta: operator.query(`SELECT key, value FROM ${t('mnemo_meta')} ORDER BY key`) };
      for (let i = 0; i < 3; i++) await coder.remember({ content: `duplicate note about the flaky staging deploy ${i}` });
      const afterRemembers = { journal: journalSize(), meta: operator.query(`SELECT key, value FROM ${t('mnemo_meta')} ORDER BY key`) };
      expect(afterRemembers.meta).toEqual(before.meta);
      let err: MnemoError | null = null;
      try {
        await coder.reflect();
      } catch (e) {
        err = e as MnemoError;
      }
      expect(err?.code).toBe('permission');
      expect({ journal: journalSize(), meta: operator.query(`SELECT key, value FROM ${t('mnemo_meta')} ORDER BY key`) }, 'journal and settings after the refused reflection').toEqual(afterRemembers);
    });
  });
});

/**
 * A store granted by the build before this one: its agent's role can write settings, markers,
 * every access event of memories it sees and its edges, with no ledger and no journal check. The
 * first writable open by the operator upgrades it: the role keeps only what the table allows now,
 * and a marker it could have planted is set aside, not trusted.
 */
describe.skipIf(unavailable)('a store granted by an older build is upgraded at the operator’s first writable open', () => {
  const SCHEMA_OLD = 'agent_attacks_old';
  const ROLE = `${SCHEMA_OLD}.coder@1`;
  let server: PgServer;
  let operator: SyncPg;
  let agent: SyncPg;
  let storeUrl = '';
  const t = (name: string) => `${SCHEMA_OLD}.${name}`;

  /** What the grant of the build before left in a store (its statements, as a fixture of that state). */
  function legacyGrant(): void {
    const scope = `${t('mnemo_owner_in_scope')}(owner)`;
    const visible = (c: string) => `EXISTS (SELECT 1 FROM ${t('memories')} m WHERE m.id = ${c})`;
    operator.query(`DROP ROLE IF EXISTS "${ROLE}"`);
    operator.query(`CREATE ROLE "${ROLE}" LOGIN`);
    operator.query(`CREATE TABLE IF NOT EXISTS ${t('mnemo_pg_agents')} (db_role text COLLATE "C" PRIMARY KEY, owner text COLLATE "C" NOT NULL)`);
    operator.query(`CREATE OR REPLACE FUNCTION ${t('mnemo_agent_role')}() RETURNS text LANGUAGE sql STABLE AS $$ SELECT split_part(owner, '@', 1) FROM ${t('mnemo_pg_agents')} WHERE db_role = current_user $$`);
    operator.query(`CREATE OR REPLACE FUNCTION ${t('mnemo_owner_in_scope')}(o text) RETURNS boolean LANGUAGE sql STABLE AS $$ SELECT o COLLATE "C" = '' OR o COLLATE "C" = r OR (o COLLATE "C" >= r || '@' AND o COLLATE "C" < r || 'A') FROM (SELECT ${t('mnemo_agent_role')}() COLLATE "C" AS r) agent $$`);
    for (const [table, condition] of Object.entries({ memories: scope, memory_edges: visible('src'), mnemo_access_events: visible('memory_id'), mnemo_tombstones: scope })) {
      operator.query(`ALTER TABLE ${t(table)} ENABLE ROW LEVEL SECURITY`);
      operator.query(`CREATE POLICY mnemo_agent ON ${t(table)} FOR ALL USING (${condition}) WITH CHECK (${condition})`);
    }
    for (const table of ['mnemo_journal', 'mnemo_journal_rows', 'mnemo_agent_credentials']) operator.query(`ALTER TABLE ${t(table)} ENABLE ROW LEVEL SECURITY`);
    operator.query(`GRANT USAGE ON SCHEMA ${SCHEMA_OLD} TO "${ROLE}"`);
    const readWrite = ['memories', 'memory_edges', 'mnemo_access_events', 'mnemo_tombstones', 'mnemo_deltas', 'mnemo_dimensions', 'mnemo_entity_aliases', 'mnemo_alias_rejections', 'maintenance_log', 'mnemo_meta', 'mnemo_profiles'];
    operator.query(`GRANT SELECT, INSERT, UPDATE, DELETE ON ${readWrite.map(t).join(', ')} TO "${ROLE}"`);
    operator.query(`GRANT SELECT ON ${t('mnemo_pg_store')}, ${t('mnemo_pg_agents')}, ${t('mnemo_pg_feed')} TO "${ROLE}"`);
    operator.query(`GRANT USAGE ON ALL SEQUENCES IN SCHEMA ${SCHEMA_OLD} TO "${ROLE}"`);
    operator.query(`INSERT INTO ${t('mnemo_pg_agents')}(db_role, owner) VALUES ($1, 'coder@1')`, [ROLE]);
    // What this build adds, taken away again: the store as the build before left it.
    operator.query(`DROP TRIGGER IF EXISTS mnemo_check_setting ON ${t('mnemo_meta')}`);
    operator.query(`DROP TABLE IF EXISTS ${t('mnemo_pg_runs')}`);
    operator.query(`DELETE FROM ${t('mnemo_pg_store')} WHERE key = 'guard_ddl_level'`);
  }

  let victim = '';

  beforeAll(async () => {
    server = startPg();
    storeUrl = `${server.url}${server.url.includes('?') ? '&' : '?'}schema=${SCHEMA_OLD}`;
    operator = SyncPg.connect(server.url);
    operator.query(`DROP SCHEMA IF EXISTS ${SCHEMA_OLD} CASCADE`);
    const writer = openStore(storeUrl, { owner: 'writer@1', clock: fixedClock(T0), session: 'writer', onWarning: () => {} });
    victim = (await writer.remember({ content: 'the writer’s memory a planted marker would roll back' })).id;
    writer.close();
    legacyGrant();
    agent = SyncPg.connect(parsePgStoreUrl(`${server.url}${server.url.includes('?') ? '&' : '?'}schema=${SCHEMA_OLD}`).connection.replace('postgres://postgres@', `postgres://${encodeURIComponent(ROLE)}@`));
  }, 120_000);

  afterAll(() => {
    agent?.close();
    operator?.close();
    server?.stop();
  });

  it('narrows the old role to this build’s privileges, and sets aside a marker it could have planted', async () => {
    const [add] = operator.query<{ id: string }>(`SELECT id FROM ${t('mnemo_journal')} ORDER BY id DESC LIMIT 1`);
    // While the store is as the old build left it, the agent's role writes a marker (as it could).
    agent.query(`INSERT INTO ${t('mnemo_meta')}(key, value) VALUES ('journal_run', $1)`, [JSON.stringify({ change_id: Number(add!.id), mode: 'record', label: 'planted', pid: deadPid(), host: hostname(), started_at: T0, cursor: null })]);
    const warnings: string[] = [];
    PgStore.open(storeUrl, { clock: fixedClock(T0 + 10), onWarning: (m) => warnings.push(m) }).close();
    expect(operator.query(`SELECT 1 FROM ${t('memories')} WHERE id = $1`, [victim]), 'the writer’s memory after the upgrade').toHaveLength(1);
    expect(warnings.join('\n')).toMatch(/run marker from before this upgrade .*set aside/);
    expect(operator.query<{ value: string }>(`SELECT value FROM ${t('mnemo_pg_store')} WHERE key = 'guard_ddl_level'`)[0]?.value).toBe(String(GUARD_DDL_LEVEL));
    // The old role's privileges are this build's now.
    for (const [sql, what] of [
      [`UPDATE ${t('mnemo_meta')} SET value = 'no-such-profile' WHERE key = 'profile'`, 'a setting'],
      [`INSERT INTO ${t('mnemo_pg_runs')}(key, value) VALUES ('journal_run', '{}')`, 'a marker'],
      [`DELETE FROM ${t('mnemo_access_events')}`, 'access events'],
      [`UPDATE ${t('mnemo_profiles')} SET config = '{}'`, 'saved profiles'],
      [`DELETE FROM ${t('mnemo_deltas')}`, 'the belief log'],
      [`SELECT data FROM ${t('memories')}`, 'the rings in memories’ data'],
    ] as const) {
      expect(errorOf(() => agent.query(sql))?.details, what).toMatchObject({ sqlstate: '42501' });
    }
    // And it journals through the engine, as an agent granted by this build does.
    const coder = openStore(storeUrl.replace('postgres://postgres@', `postgres://${encodeURIComponent(ROLE)}@`), { owner: 'coder@1', clock: fixedClock(T0 + 20), session: 'coder', onWarning: () => {} });
    try {
      const before = Number(operator.query<{ n: string }>(`SELECT count(*) AS n FROM ${t('mnemo_journal')}`)[0]!.n);
      await coder.remember({ content: 'the coder writes after the upgrade' });
      expect(Number(operator.query<{ n: string }>(`SELECT count(*) AS n FROM ${t('mnemo_journal')}`)[0]!.n)).toBe(before + 1);
    } finally {
      coder.close();
    }
  });

  it('a store granted at the level before (agents read memories’ data whole) is narrowed at the operator’s next writable open', async () => {
    const writer = openStore(storeUrl, { owner: 'writer@1', clock: fixedClock(T0 + 30), session: 'writer-level-1', onWarning: () => {} });
    try {
      await addMemory(writer.engine, { content: 'a shared page the writer will look up', owner: '' });
      expect((await writer.recall('shared page the writer looks up')).length).toBeGreaterThan(0);
    } finally {
      writer.close();
    }
    // The grants of level 1: memories and the feed read whole, no view; its ring tells the writer's queries.
    operator.query(`GRANT SELECT ON ${t('memories')}, ${t('mnemo_pg_feed')} TO "${ROLE}"`);
    operator.query(`DROP VIEW ${t('mnemo_agent_memories')}`);
    operator.query(`UPDATE ${t('mnemo_pg_store')} SET value = '1' WHERE key = 'guard_ddl_level'`);
    const rings = () => agent.query<{ data: string }>(`SELECT data FROM ${t('memories')} WHERE owner = ''`).map((r) => r.data).join('\n');
    expect(rings(), 'what the level-1 role read').toContain('shared page the writer looks up');
    PgStore.open(storeUrl, { clock: fixedClock(T0 + 40), onWarning: () => {} }).close();
    expect(errorOf(rings)?.details, 'memories’ data after the upgrade').toMatchObject({ sqlstate: '42501' });
    expect(errorOf(() => agent.query(`SELECT old_data FROM ${t('mnemo_pg_feed')}`))?.details, 'the feed’s images after the upgrade').toMatchObject({ sqlstate: '42501' });
    const seen = agent.query<{ data: string }>(`SELECT data FROM ${t('mnemo_agent_memories')} WHERE owner = ''`).map((r) => r.data).join('\n');
    expect(seen).not.toContain('shared page the writer looks up');
  });
});

