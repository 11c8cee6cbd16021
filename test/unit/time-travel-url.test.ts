/**
 * Time travel in the workbench's URL: `?at=<epoch seconds>` names the instant a view shows, the
 * time control changes only that parameter, quick steps never reach into the future, and the diff
 * view's address always names both instants.
 */
import { describe, expect, it } from 'vitest';
import { agoLabel, fmtInstant, fromInputValue, hashWithInstant, instantParam, stepInstant, toInputValue } from '../../renderer/state/instant.js';
import type { ChangeAuthor } from '../../core/api/contract/store.js';
import { diffHash, diffParams } from '../../renderer/views/history/diff/diff-params.js';
import { authorWords, kindCount } from '../../renderer/views/history/diff/diff-words.js';
import { filtersFromParams, filtersToHash } from '../../renderer/views/memories/filters.js';
import { hashFor, readParams } from '../../renderer/views/recall/params.js';
import { keys, sameTimeline } from '../../renderer/api/keys.js';

const q = (s: string) => new URLSearchParams(s);
const NOW = 1_780_000_000; // 2026-05-28 20:26:40 UTC

describe('the instant in the URL', () => {
  it('reads whole epoch seconds, and no `at` as the live store', () => {
    expect(instantParam(q('at=1779990000'))).toEqual({ at: 1_779_990_000, error: null });
    expect(instantParam(q(''))).toEqual({ at: null, error: null });
    expect(instantParam(q('at='))).toEqual({ at: null, error: null });
  });

  it('refuses what is not whole seconds, in words, and shows the live store instead', () => {
    for (const raw of ['yesterday', '-5', '1.5', '1e9']) {
      expect(instantParam(q(`at=${raw}`))).toEqual({ at: null, error: `The link's instant "${raw}" is not a time in whole seconds since 1970; showing the store as it is now.` });
    }
  });

  it('sets and removes only `at`, keeping every other parameter and the path as they were', () => {
    expect(hashWithInstant('/memories?type=info,todo&owner=&q=deploy', 1_779_990_000)).toBe('/memories?type=info,todo&owner=&q=deploy&at=1779990000');
    expect(hashWithInstant('#/memories?type=info,todo&at=1779990000', null)).toBe('/memories?type=info,todo');
    expect(hashWithInstant('/memory/abc?at=5', 6)).toBe('/memory/abc?at=6');
    expect(hashWithInstant('', 7)).toBe('/memories?at=7');
  });
});

describe('instants for people', () => {
  it('are shown to the second in UTC, and typed the same way', () => {
    expect(fmtInstant(NOW)).toBe('2026-05-28 20:26:40 UTC');
    expect(toInputValue(NOW)).toBe('2026-05-28 20:26:40');
    expect(fromInputValue('2026-05-28T20:26:40')).toBe(NOW);
    // A browser that leaves the seconds out means second 0.
    expect(fromInputValue('2026-05-28T20:26')).toBe(NOW - 40);
    expect(fromInputValue('')).toBeNull();
    expect(fromInputValue('not a date')).toBeNull();
  });

  it('say how long ago, with the noun agreeing', () => {
    expect(agoLabel(NOW - 1, NOW)).toBe('1 second ago');
    expect(agoLabel(NOW - 59, NOW)).toBe('59 seconds ago');
    expect(agoLabel(NOW - 60, NOW)).toBe('1 minute ago');
    expect(agoLabel(NOW - 3 * 3600 - 5, NOW)).toBe('3 hours ago');
    expect(agoLabel(NOW - 86_400, NOW)).toBe('1 day ago');
    expect(agoLabel(NOW - 9 * 86_400, NOW)).toBe('9 days ago');
  });
});

describe('quick steps', () => {
  it('step back from now when live, and from the instant shown otherwise', () => {
    expect(stepInstant(null, -3600, NOW)).toBe(NOW - 3600);
    expect(stepInstant(NOW - 86_400, -3600, NOW)).toBe(NOW - 86_400 - 3600);
    expect(stepInstant(NOW - 86_400, 3600, NOW)).toBe(NOW - 86_400 + 3600);
  });

  it('turn into the live store when they reach now or later (the future is not history)', () => {
    expect(stepInstant(NOW - 1800, 3600, NOW)).toBeNull();
    expect(stepInstant(NOW - 3600, 3600, NOW)).toBeNull();
    expect(stepInstant(null, 3600, NOW)).toBeNull();
  });
});

describe('the diff view address', () => {
  it('reads both instants, the kind and the page size', () => {
    expect(diffParams(q('from=100&to=200&kind=added&limit=400'), NOW)).toEqual({ from: 100, to: 200, kind: 'added', limit: 400, completed: false, error: null });
  });

  it('fills in the last day up to now when the link names no instant, and says it did', () => {
    expect(diffParams(q(''), NOW)).toMatchObject({ from: NOW - 86_400, to: NOW, completed: true, error: null });
    expect(diffParams(q('from=100'), NOW)).toMatchObject({ from: 100, to: NOW, completed: true });
  });

  it('reports instants the wrong way round or not in seconds, and caps the page size', () => {
    expect(diffParams(q('from=200&to=100'), NOW)).toMatchObject({ from: 100, to: 200, error: 'The link compares a later instant with an earlier one; the two are shown the other way round.' });
    expect(diffParams(q('from=abc&to=100'), NOW).error).toBe(`The link's "from" instant "abc" is not a time in whole seconds since 1970.`);
    expect(diffParams(q('from=1&to=2&limit=999999'), NOW).limit).toBe(10_000);
    expect(diffParams(q('from=1&to=2&limit=-3'), NOW).limit).toBe(200);
  });

  it('writes the default page size and kind out of the address', () => {
    expect(diffHash({ from: 100, to: 200 })).toBe('/history/diff?from=100&to=200');
    expect(diffHash({ from: 100, to: 200, kind: 'unlinked', limit: 400 })).toBe('/history/diff?from=100&to=200&kind=unlinked&limit=400');
  });
});

describe('views keep the instant when their own parameters change', () => {
  it('Memories: changing a filter keeps `at`, clearing the instant leaves the filters', () => {
    const f = filtersFromParams(q('type=info&owner=&at=1779990000'));
    expect(f.at).toBe(1_779_990_000);
    expect(filtersToHash({ ...f, types: ['todo'] })).toBe('/memories?type=todo&at=1779990000&owner=');
    expect(filtersToHash({ ...f, at: null })).toBe('/memories?type=info&owner=');
  });

  it('Recall: the console writes `at` back with the query', () => {
    const r = readParams(q('q=deploy&at=1779990000'));
    expect(r.at).toBe(1_779_990_000);
    expect(hashFor({ ...r, k: 20 })).toBe('/recall?q=deploy&k=20&at=1779990000');
  });
});

describe('the diff in words', () => {
  const author = (a: Partial<ChangeAuthor>): ChangeAuthor => ({ kind: 'journal', change_id: null, label: null, writer: null, credential_id: null, owner: null, text: '', ...a });

  it('names writers for people: an agent by its owner, a non-Mnemo program as a foreign writer', () => {
    expect(authorWords(author({ kind: 'journal', change_id: 12, owner: 'ops@a1', credential_id: 'c1', writer: 'mnemo:cred:c1' }))).toEqual({ who: 'agent ops@a1', kind: 'journal' });
    // A revoked credential without a known owner: no id for people to decode.
    expect(authorWords(author({ kind: 'journal', change_id: 12, credential_id: 'c1' }))).toEqual({ who: 'an agent', kind: 'journal' });
    // The change names itself; Mnemo's own writer tag ("mnemo") is not for people.
    expect(authorWords(author({ kind: 'journal', change_id: 3, writer: 'mnemo' }))).toEqual({ who: 'operator', kind: 'journal' });
    expect(authorWords(author({ kind: 'mnemo', writer: 'mnemo' }))).toEqual({ who: 'Mnemo, outside the journal (an access)', kind: 'mnemo' });
    expect(authorWords(author({ kind: 'mnemo', writer: 'mnemo:cred:c1', owner: 'ops@a1' }))).toEqual({ who: 'Mnemo, outside the journal (an access) by agent ops@a1', kind: 'mnemo' });
    expect(authorWords(author({ kind: 'foreign' }))).toEqual({ who: 'foreign writer', kind: 'foreign' });
  });

  it('counts each kind with the noun agreeing', () => {
    expect(kindCount('added', 1)).toBe('1 memory added');
    expect(kindCount('changed', 3)).toBe('3 memories changed');
    expect(kindCount('unlinked', 1)).toBe('1 edge unlinked');
    expect(kindCount('edge-changed', 2)).toBe('2 edges reweighted');
    expect(kindCount('linked', 1200)).toBe('1,200 edges linked');
  });
});

describe('live refresh and the past', () => {
  it('past answers live outside the key live refresh invalidates', () => {
    const live = keys.all;
    for (const key of [keys.pastMemoryPage({}, 0, 5), keys.pastGraph({}, 5), keys.asOf(5), keys.diff({ from: 1, to: 2 }), keys.replayThen(3)]) {
      expect(key.slice(0, live.length)).not.toEqual([...live]);
    }
  });

  it('a page being fetched keeps the previous one on screen only within one timeline', () => {
    const page = { total: 1, rows: [] };
    const liveKey = keys.memoryPage({ q: 'a' }, 0);
    const pastKey = keys.pastMemoryPage({ q: 'a' }, 0, 100);
    expect(sameTimeline(liveKey)(page, { queryKey: keys.memoryPage({ q: '' }, 0) })).toBe(page);
    expect(sameTimeline(pastKey)(page, { queryKey: keys.pastMemoryPage({ q: '' }, 0, 100) })).toBe(page);
    // Live rows never stand in for the past, nor the past for live, nor one instant for another.
    expect(sameTimeline(pastKey)(page, { queryKey: liveKey })).toBeUndefined();
    expect(sameTimeline(liveKey)(page, { queryKey: pastKey })).toBeUndefined();
    expect(sameTimeline(pastKey)(page, { queryKey: keys.pastMemoryPage({ q: 'a' }, 0, 200) })).toBeUndefined();
    expect(sameTimeline(keys.pastGraph({}, 100))(page, { queryKey: keys.pastGraph({ limit: 5 }, 100) })).toBe(page);
  });
});
