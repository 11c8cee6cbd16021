/**
 * The Memories list's owner filter in its URL: owners are data (the Fleet view's owner links and
 * the owner facet write them), so any string, a comma or a `%` in it too, comes back exactly.
 */
import { describe, expect, it } from 'vitest';
import { parseRoute } from '../../renderer/state/hash.js';
import { filtersFromParams, filtersToHash, memoriesHref } from '../../renderer/views/memories/filters.js';

const ownersOf = (hash: string) => filtersFromParams(parseRoute(hash.replace(/^#/, '')).params).owners;

describe('the owner filter in the URL', () => {
  it('round-trips any owner string, commas and percent signs included', () => {
    const owners = ['', 'a,b', 'x%2Cy', '100%', 'Ågent "<b>bold</b>" 🤖', 'w1@fleet', ',', '%'];
    const base = filtersFromParams(new URLSearchParams());
    expect(ownersOf(filtersToHash({ ...base, owners }))).toEqual(owners);
    for (const o of owners) expect(ownersOf(memoriesHref({ owners: [o] }))).toEqual([o]);
  });

  it('reads the links written before, where a comma always separated two owners', () => {
    expect(ownersOf('/memories?owner=w1%40fleet,w2%40fleet')).toEqual(['w1@fleet', 'w2@fleet']);
    expect(ownersOf('/memories?owner=50%25off')).toEqual(['50%off']);
    expect(ownersOf('/memories?owner=')).toEqual(['']);
    expect(ownersOf('/memories')).toEqual([]);
  });
});
