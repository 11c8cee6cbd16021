/**
 * One rule, in the contract, says which calls change what the open views show; the Electron door
 * follows it (and so does the HTTP door, which imports the same function).
 */
import { describe, expect, it, vi } from 'vitest';
import { ApiSession } from '../../core/api/context.js';
import { changesWhatViewsShow, contract, METHOD_NAMES } from '../../core/api/contract/index.js';
import { handleInvoke } from '../../electron/ipc.js';
import { fixtureCopy } from '../../support/fixture.js';

describe('which calls refresh the open views', () => {
  it('is every method that writes, plus the two that make another store current', () => {
    const refreshing = METHOD_NAMES.filter(changesWhatViewsShow).sort();
    const writing = METHOD_NAMES.filter((m) => (contract[m] as { mutates?: boolean }).mutates === true);
    expect(refreshing).toEqual([...writing, 'store.open', 'fleet.openStore'].sort());
    expect(changesWhatViewsShow('memory.get')).toBe(false);
    expect(changesWhatViewsShow('no.such')).toBe(false);
  });

  it('the Electron door refreshes after a store.open (as the HTTP door always did), not after a read', async () => {
    const session = new ApiSession();
    const onMutation = vi.fn();
    const frame = { senderFrame: { url: 'app://mnemo/index.html#/memories', parent: null } } as never;
    try {
      const opened = await handleInvoke(frame, 'store.open', { path: fixtureCopy() }, { session: () => session, onMutation });
      expect(opened.ok).toBe(true);
      expect(onMutation).toHaveBeenCalledWith('store.open');
      onMutation.mockClear();
      expect((await handleInvoke(frame, 'store.info', {}, { session: () => session, onMutation })).ok).toBe(true);
      expect(onMutation).not.toHaveBeenCalled();
    } finally {
      session.close();
    }
  });
});
