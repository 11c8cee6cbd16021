/**
 * An agent's own database role (`mnemo pg grant`) makes journalled changes through the engine, as
 * an operator's are: the operator lists them and undoes them. The role still reads no journal
 * image, and its one door into the journal (pg-agent-journal-ddl.ts) refuses a change whose images
 * name a row outside its scope, writing nothing: else an operator's later undo would write another
 * owner's memories for it. Against a real server (a throwaway cluster trusting local connections).
 *
 * What could go wrong: the agent's write failing on the journal or the feed, its change missing
 * from the history, an undo that does not restore, a foreign image (by its owner, by a key naming
 * a foreign memory, by an unknown kind of row) let through, a partial write on refusal.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixedClock } from '../../core/clock.js';
import type { MnemoError } from '../../core/errors.js';
import { openStore, type AgentMemory } from '../../core/index.js';
import { grantAgent } from '../../core/store/pg/pg-grant.js';
import { PgStore } from '../../core/store/pg/pg-store.js';
import { parsePgStoreUrl, storeUrlAs } from '../../core/store/pg/pg-url.js';
import { SyncPg } from '../../core/store/pg/sync-pg.js';
import { pgUnavailable, startPg, type PgServer } from '../../support/pg-cluster.js';
import { dataOf } from '../helpers/mcp.js';

const SCHEMA = 'agent_journal';
const CLI = ['--import', 'tsx', join(process.cwd(), 'cli', 'main.ts')];
const T0 = 1_750_000_000;
const unavailable = pgUnavailable();

function refusal(fn: () => unknown): MnemoError | null {
  try {
    fn();
  } catch (err) {
    return err as MnemoError;
  }
  return null;
}

describe.skipIf(unavailable)("an agent's database role journals its changes, held to its scope", () => {
  let server: PgServer;
  let storeUrl = '';
  let agentUrl = '';
  let operator: SyncPg;
  let agentSql: SyncPg;
  let agent: AgentMemory;
  let foreignId = '';
  const t = (name: string) => `${SCHEMA}.${name}`;
  const open = (url: string, owner: string) => openStore(url, { owner, clock: fixedClock(T0), session: `test-${owner}`, onWarning: () => {} });
  const journalCounts = () => operator.query<{ changes: string; rows: string }>(`SELECT (SELECT count(*) FROM ${t('mnemo_journal')}) AS changes, (SELECT count(*) FROM ${t('mnemo_journal_rows')}) AS rows`)[0];

  beforeAll(async () => {
    server = startPg();
    storeUrl = `${server.url}${server.url.includes('?') ? '&' : '?'}schema=${SCHEMA}`;
    operator = SyncPg.connect(server.url);
    operator.query(`DROP SCHEMA IF EXISTS ${SCHEMA} CASCADE`);
    const writer = open(storeUrl, 'writer@1');
    foreignId = (await writer.remember({ content: 'the writer keeps its launch codes here' })).id;
    writer.close();
    agentUrl = grantAgent(storeUrl, 'coder@1').url;
    agentSql = SyncPg.connect(parsePgStoreUrl(agentUrl).connection);
    agent = open(agentUrl, 'coder@1');
  }, 120_000);

  afterAll(() => {
    agent?.close();
    agentSql?.close();
    operator?.close();
    server?.stop();
  });

  it('remembers, updates, links and forgets through the engine; the operator lists the changes and undoes them', async () => {
    const first = await agent.remember({ content: 'the build cache lives under the project directory' });
    const second = await agent.remember({ content: 'integration tests need the local database running' });
    expect(await agent.updateMemory(first.id, { content: 'the build cache lives in a per-user directory' })).toBe(true);
    expect(agent.associate(first.id, second.id).changed).toBe(true);
    expect(await agent.forget(second.id)).toBe(true);

    const store = PgStore.open(storeUrl);
    try {
      const changes = store.journal.history(10);
      // Newest first: forget, link, update, two remembers (the writer's remember before them).
      expect(changes.length).toBeGreaterThanOrEqual(6);
      const agents = changes.slice(0, 5);
      const touched = agents.flatMap((c) => store.journal.rows(c.id).map((r) => r.key));
      expect(new Set(touched)).toEqual(new Set([`m:${first.id}`, `m:${second.id}`, ...touched.filter((k) => k.startsWith('t:'))]));
      // Every image is of the agent's own memories.
      for (const c of agents) {
        for (const r of store.journal.rows(c.id).filter((row) => row.key.startsWith('m:'))) {
          for (const image of [r.before, r.after]) if (image) expect((image as { row: { owner: string } }).row.owner).toBe('coder@1');
        }
      }
      // The feed names the agent's changes, as it names an operator's.
      const stamped = operator.query<{ change_id: string }>(`SELECT DISTINCT change_id FROM ${t('mnemo_pg_feed')} WHERE memory_id = $1 AND change_id IS NOT NULL`, [second.id]);
      expect(stamped.map((r) => Number(r.change_id)).sort()).toEqual(expect.arrayContaining([agents[0]!.id]));

      // Forgetting archives the row (and writes a tombstone); undoing it brings the memory back.
      const archived = () => operator.query<{ archived: string }>(`SELECT archived FROM ${t('memories')} WHERE id = $1`, [second.id])[0]?.archived;
      expect(Number(archived())).toBe(1);
      store.journal.undo(agents[0]!.id);
      expect(Number(archived())).toBe(0);
      expect(store.get(second.id)?.content).toBe('integration tests need the local database running');
      // The link, then the update it came after.
      store.journal.undo(agents[1]!.id);
      expect(operator.query(`SELECT dst FROM ${t('memory_edges')} WHERE src = $1`, [first.id])).toEqual([]);
      store.journal.undo(agents[2]!.id);
      expect(store.get(first.id)?.content).toBe('the build cache lives under the project directory');
    } finally {
      store.close();
    }
  });

  it('reads no journal image as raw SQL, and cannot undo through the engine', async () => {
    for (const table of ['mnemo_journal', 'mnemo_journal_rows']) {
      expect(refusal(() => agentSql.query(`SELECT * FROM ${t(table)}`))?.details).toMatchObject({ sqlstate: '42501' });
    }
    const before = journalCounts();
    const own = await agent.remember({ content: 'a memory the agent would like to take back' });
    const session = agent.engine.store as PgStore;
    const operatorStore = PgStore.open(storeUrl);
    const [latest] = operatorStore.journal.history(1);
    operatorStore.close();
    const err = refusal(() => session.journal.undo(latest!.id));
    expect(err?.code).toBe('permission');
    expect(session.get(own.id)).not.toBeNull();
    expect(Number(journalCounts()!.changes)).toBe(Number(before!.changes) + 1);
  });

  it('journals what the server saw, never the images handed in; refuses, writing nothing, what the transaction did not write or may not', () => {
    const image = (id: string, owner: string) => JSON.stringify({ rowid: 1, row: { id, owner, content: 'planted' }, embedding: null, edges: [] });
    const before = journalCounts();
    const own = 'c'.repeat(32);
    /** In one transaction: optionally an own memory written (raw, as the engine would), then the door called. */
    const attempt = (keys: string[], befores: (string | null)[], afters: (string | null)[], opts: { write?: boolean; draw?: boolean; credential?: string | null } = {}) =>
      refusal(() =>
        agentSql.transaction(() => {
          if (opts.write) agentSql.query(`INSERT INTO ${t('memories')}(id, type, content, created_at, last_accessed, data, owner) VALUES ($1, 'info', 'the agent''s own note', 1, 1, '{}', 'coder@1')`, [own]);
          const [r] = agentSql.query<{ id: string }>(`SELECT nextval(pg_get_serial_sequence($1, 'id')) AS id`, [t('mnemo_journal')]);
          const id = opts.draw === false ? String(Number(r!.id) - 1) : r!.id;
          agentSql.query(`SELECT ${t('mnemo_agent_journal_write')}($1, 1, 'planted', 'memory.update', '{}', NULL, $5, $2::text[], $3::text[], $4::text[])`, [id, keys, befores, afters, opts.credential ?? null]);
        }),
      );
    const credential = `INSERT INTO ${t('mnemo_agent_credentials')}(id, owner, token_hash, created_at) VALUES ($1, $2, $3, 1)`;
    operator.query(credential, ['cred-of-writer', 'writer@1', 'hash-w']);
    operator.query(credential, ['cred-of-coder', 'coder@2', 'hash-c']);
    const cases: [string, MnemoError | null, RegExp][] = [
      ['a key naming a foreign memory, whatever its image claims', attempt([`m:${foreignId}`], [image(foreignId, 'coder@1')], [null]), /this transaction wrote no such row/],
      ['a key naming a foreign memory, created from nothing', attempt([`m:${foreignId}`], [null], [image(foreignId, 'coder@1')]), /this transaction wrote no such row/],
      ['an own row written, and a second key it did not write', attempt([`m:${own}`, 'm:x1'], [null, null], [image(own, 'coder@1'), image('x1', 'coder@1')], { write: true }), /m:x1: this transaction wrote no such row/],
      ['a store setting', attempt(['meta:profile'], [null], ['{"value":"mnemo"}'], { write: true }), /not an agent’s to write/],
      ['an unknown kind of row', attempt(['credential:abc'], [null], ['{}'], { write: true }), /no such kind of row/],
      ['a change id this session did not draw', attempt([`m:${own}`], [null], [image(own, 'coder@1')], { write: true, draw: false }), /not drawn by this session/],
      ['a credential outside its scope', attempt([`m:${own}`], [null], [image(own, 'coder@1')], { write: true, credential: 'cred-of-writer' }), /may not name credential/],
    ];
    for (const [what, err, reason] of cases) {
      expect(err?.details, what).toMatchObject({ sqlstate: '42501' });
      expect(err?.message, what).toMatch(reason);
    }
    expect(journalCounts()).toEqual(before);
    expect(operator.query(`SELECT owner, content FROM ${t('memories')} WHERE id = $1`, [foreignId])).toEqual([{ owner: 'writer@1', content: 'the writer keeps its launch codes here' }]);
    // The same door takes a change of a row the transaction wrote, and journals the server's images, not the ones handed in.
    expect(attempt([`m:${own}`], [image(own, 'coder@1')], [image(own, 'coder@1')], { write: true, credential: 'cred-of-coder' })).toBeNull();
    expect(Number(journalCounts()!.changes)).toBe(Number(before!.changes) + 1);
    const [row] = operator.query<{ before: string | null; after: string }>(`SELECT before, after FROM ${t('mnemo_journal_rows')} WHERE key = $1`, [`m:${own}`]);
    expect(row!.before).toBeNull();
    expect(JSON.parse(row!.after)).toMatchObject({ row: { id: own, owner: 'coder@1', content: "the agent's own note" }, edges: [] });
  });

  it('a second grant upgrades the role in place; the agent still journals', async () => {
    expect(grantAgent(storeUrl, 'coder@1').existed).toBe(true);
    const before = Number(journalCounts()!.changes);
    await agent.remember({ content: 'granted twice, still journalled' });
    expect(Number(journalCounts()!.changes)).toBe(before + 1);
  });

  it('the doors an agent uses: `mnemo add` and `mnemo mcp` connected as its role', async () => {
    const before = Number(journalCounts()!.changes);
    const add = spawnSync(process.execPath, [...CLI, 'add', agentUrl, 'added from the command line as the agent', '--owner', 'coder@1'], { encoding: 'utf8', timeout: 60_000 });
    expect(add.status, add.stderr).toBe(0);
    const transport = new StdioClientTransport({ command: process.execPath, args: [...CLI, 'mcp', agentUrl, '--owner', 'coder@1'], cwd: process.cwd(), stderr: 'pipe' });
    const client = new Client({ name: 'agent-journal', version: '1.0.0' });
    await client.connect(transport);
    try {
      const remembered = (await client.callTool({ name: 'remember', arguments: { content: 'remembered over MCP as the agent role' } })) as CallToolResult;
      expect(remembered.isError ?? false).toBe(false);
      const id = dataOf(remembered).id as string;
      expect(operator.query(`SELECT owner FROM ${t('memories')} WHERE id = $1`, [id])).toEqual([{ owner: 'coder@1' }]);
    } finally {
      await client.close();
    }
    const labels = operator.query<{ label: string }>(`SELECT label FROM ${t('mnemo_journal')} ORDER BY id DESC LIMIT 2`).map((r) => r.label);
    expect(Number(journalCounts()!.changes)).toBe(before + 2);
    expect(labels).toHaveLength(2);
  }, 120_000);

  it('a role that may read the journal but not write it (a viewer) still lists it; its undo is refused', () => {
    const viewer = `${SCHEMA}_viewer`;
    operator.query(`DROP ROLE IF EXISTS ${viewer}`);
    operator.query(`CREATE ROLE ${viewer} LOGIN BYPASSRLS`);
    operator.query(`GRANT USAGE ON SCHEMA ${SCHEMA} TO ${viewer}`);
    operator.query(`GRANT SELECT ON ALL TABLES IN SCHEMA ${SCHEMA} TO ${viewer}`);
    const store = PgStore.open(storeUrlAs(parsePgStoreUrl(storeUrl), viewer), { readonly: true });
    try {
      const [latest] = store.journal.history(1);
      expect(latest?.state).toBe('applied');
      expect(refusal(() => store.journal.markUndone(latest!.id))?.code).toBe('permission');
    } finally {
      store.close();
    }
  });
});
