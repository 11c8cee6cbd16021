import { afterEach, describe, expect, it } from 'vitest';
import { ApiSession } from '../../core/api/context.js';
import { call } from '../../core/api/service.js';
import { expected, fixtureCopy } from '../../support/fixture.js';

let session: ApiSession;
afterEach(() => session?.close());

describe('memory list full-text search (FTS5)', () => {
  it('matches every word as a prefix over title and content, and id prefixes', async () => {
    session = ApiSession.withFrozenClock(expected().now);
    session.open(fixtureCopy());
    const all = (await call(session, 'memory.list', { archived: 'all', limit: 5000 })).rows;
    const billing = await call(session, 'memory.list', { text: 'billing', archived: 'all', limit: 5000 });
    const want = all.filter((r) => /\bbilling/i.test(`${r.title ?? ''} ${r.head}`)).length;
    expect(billing.total).toBeGreaterThan(0);
    expect(billing.total).toBeGreaterThanOrEqual(want);
    const deployPrefix = await call(session, 'memory.list', { text: 'deplo', limit: 5000 });
    expect(deployPrefix.total).toBeGreaterThan(0);
    const both = await call(session, 'memory.list', { text: 'deploy staging', limit: 5000 });
    for (const r of both.rows) {
      const m = (await call(session, 'memory.get', { id: r.id })).memory;
      expect(`${m.title ?? ''} ${m.content}`).toMatch(/\bdeplo[\s\S]*|[\s\S]*\bdeplo/i);
      expect(`${m.title ?? ''} ${m.content}`).toMatch(/\bstaging/i);
    }
    expect(both.total).toBeLessThanOrEqual(deployPrefix.total);
    const id = all[7]!.id;
    expect((await call(session, 'memory.list', { text: id.slice(0, 8), archived: 'all' })).rows.map((r) => r.id)).toContain(id);
    expect((await call(session, 'memory.list', { text: '"!!"' })).total).toBe(0);
    expect((await call(session, 'memory.list', { text: 'zzzqqqxx' })).total).toBe(0);
  });

  it('sees new and edited memories without a reload', async () => {
    session = ApiSession.withFrozenClock(expected().now);
    session.open(fixtureCopy());
    expect((await call(session, 'memory.list', { text: 'quokka' })).total).toBe(0);
    const m = await call(session, 'memory.add', { content: 'The quokka service answers on port 9090.' });
    expect((await call(session, 'memory.list', { text: 'quokka' })).rows.map((r) => r.id)).toEqual([m.id]);
    await call(session, 'memory.update', { id: m.id, patch: { content: 'Renamed to wallaby.' } });
    expect((await call(session, 'memory.list', { text: 'quokka' })).total).toBe(0);
    expect((await call(session, 'memory.list', { text: 'wallab' })).total).toBe(1);
  });
});
