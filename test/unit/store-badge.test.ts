/**
 * The store badge's words about held counts (renderer/components/store-badge-words.ts): while
 * another writer's long change holds store.info's counts, the badge names the change and when the
 * count was taken, from the engine's own `counts_held`.
 */
import { describe, expect, it } from 'vitest';
import { heldNote, heldTitle } from '../../renderer/components/store-badge-words.js';

const held = { change_id: 12, label: 'reflect.apply', mode: 'record' as const, counted_at: 1_780_000_000 };

describe('the store badge', () => {
  it('names the change that holds the count, and when it was taken', () => {
    expect(heldNote(held)).toBe(' (held during change #12)');
    const title = heldTitle('/stores/demo.sqlite', held);
    expect(title.startsWith('/stores/demo.sqlite\n')).toBe(true);
    expect(title).toContain('Counted at 2026-05-28 20:26.');
    expect(title).toContain('Change #12 (reflect.apply, record) is being written in batches');
  });
});
