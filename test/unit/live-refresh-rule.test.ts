/**
 * One rule, in the contract, says which calls change what the open views show; the engine host
 * follows it for both doors (IPC and HTTP).
 */
import { describe, expect, it } from 'vitest';
import { changesWhatViewsShow, contract, METHOD_NAMES } from '../../core/api/contract/index.js';
import { EngineHost } from '../../core/host/engine-host.js';
import { fixtureCopy } from '../../support/fixture.js';

describe('which calls refresh the open views', () => {
  it('is every method that writes, plus the two that make another store current', () => {
    const refreshing = METHOD_NAMES.filter(changesWhatViewsShow).sort();
    const writing = METHOD_NAMES.filter((m) => (contract[m] as { mutates?: boolean }).mutates === true);
    expect(refreshing).toEqual([...writing, 'store.open', 'fleet.openStore'].sort());
    expect(changesWhatViewsShow('memory.get')).toBe(false);
    expect(changesWhatViewsShow('no.such')).toBe(false);
  });

  it('the engine host, which both doors call, refreshes after a store.open and a write, not after a read', async () => {
    const host = await EngineHost.start({ lanes: { light: 1, index: 1, jobs: 1 }, session: { reader: { owner: 'workbench', session_ref: null } } });
    try {
      let g = host.live.generation;
      expect((await host.invoke('store.open', { path: fixtureCopy() })).ok).toBe(true);
      expect(host.live.generation).toBeGreaterThan(g);
      g = host.live.generation;
      expect((await host.invoke('store.info', {})).ok).toBe(true);
      expect((await host.invoke('memory.list', { limit: 1 })).ok).toBe(true);
      expect(host.live.generation).toBe(g);
      expect((await host.invoke('memory.add', { content: 'a write the open views must show' })).ok).toBe(true);
      expect(host.live.generation).toBeGreaterThan(g);
    } finally {
      await host.close();
    }
  }, 60_000);
});
