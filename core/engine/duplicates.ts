/**
 * The near-duplicate finder (modelled on Anki's "Find Duplicates"): live memories whose text is the
 * same once case, punctuation and spacing are set aside, grouped, largest group first. Each group
 * names its owners and the survivor a merge would keep (the shared merge-order rule), so the
 * curator can merge it from the list or dismiss it.
 */
import { createHash } from 'node:crypto';
import { compareMergeSurvivor, mergeOwners } from '../model/merge-order.js';
import { memoryHead } from '../model/memory.js';
import { ownerMatches, type OwnerScope } from '../model/owner.js';
import type { StoreReader } from '../store/port/port.js';
import type { DerivedIndex } from '../store/derived/derived.js';
import { derivedIndexKey } from './derived-key.js';
import type { EngineReader } from './engine.js';
import { duplicateCandidate, liveDuplicateCandidates, titlesOf } from '../store/queries/memory-views.js';

export interface DuplicateMember {
  id: string;
  type: string;
  owner: string;
  head: string;
  created_at: number;
  strength: number;
}

export interface DuplicateGroup {
  /** A hash of the normalized text (and owner, in same-owner mode): stable across calls, for dismissing. */
  key: string;
  members: DuplicateMember[];
  survivor: string;
  owners: string[];
  cross_owner: boolean;
}

export interface DuplicatePage {
  groups: DuplicateGroup[];
  total_groups: number;
  total_memories: number;
  scanned: number;
}

export interface DuplicateQuery {
  scope: OwnerScope;
  /** Only groups whose members all share one owner (the ones a merge can take without confirmation). */
  same_owner: boolean;
  /** Group keys the curator dismissed; left out of the list. */
  dismissed: string[];
  offset: number;
  limit: number;
}

// eslint-disable-next-line no-control-regex -- the ASCII range starts at NUL on purpose
const ASCII = /^[\x00-\x7f]*$/;

/** Case, punctuation and runs of spaces do not make two memories different. */
export function normalizeForDuplicates(text: string): string {
  // Most text is ASCII, where this is the same rule at a third of the cost.
  if (ASCII.test(text)) return text.toLowerCase().replace(/[^a-z0-9]+/g, ' ').trim();
  return text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

interface Candidate {
  id: string;
  type: string;
  owner: string;
  created_at: number;
  strength: number;
  /** The normalized text. */
  text: string;
  head: string;
}

/**
 * Every live memory's normalized text, kept in step with the store: the first search reads the
 * whole table once (seconds on a 100k store, where each row carries its embedding), the next ones
 * only group what is already in memory.
 */
class DuplicateIndex implements DerivedIndex {
  /** Candidates come from the row alone. */
  readonly readsNoEdges = true;
  readonly rows = new Map<string, Candidate>();
  /** The grouping of the last searches, valid while `version` is unchanged (paging re-uses it). */
  readonly grouped = new Map<string, { version: number; groups: { key: string; members: Candidate[] }[] }>();
  version = 0;

  load(store: StoreReader): void {
    this.version++;
    this.rows.clear();
    for (const r of liveDuplicateCandidates(store)) this.put(r);
  }

  update(store: StoreReader, id: string): void {
    this.version++;
    const r = duplicateCandidate(store, id);
    if (!r || r.archived) this.rows.delete(id);
    else this.put(r);
  }

  remove(id: string): void {
    this.version++;
    this.rows.delete(id);
  }

  private put(r: { id: string; type: string; owner: string; created_at: number; strength: number; content: string }): void {
    const text = normalizeForDuplicates(r.content);
    if (text === '') {
      this.rows.delete(r.id);
      return;
    }
    this.rows.set(r.id, { id: r.id, type: r.type, owner: r.owner, created_at: r.created_at, strength: r.strength, text, head: memoryHead({ title: null, content: r.content }) });
  }
}

function groupRows(rows: Iterable<Candidate>, scope: OwnerScope, sameOwner: boolean): Map<string, Candidate[]> {
  const byKey = new Map<string, Candidate[]>();
  for (const r of rows) {
    if (!ownerMatches(r.owner, scope)) continue;
    const key = sameOwner ? `${r.owner}\u0000${r.text}` : r.text;
    const list = byKey.get(key);
    if (list) list.push(r);
    else byKey.set(key, [r]);
  }
  return byKey;
}

function groupsOf(index: DuplicateIndex, scope: OwnerScope, sameOwner: boolean): { key: string; members: Candidate[] }[] {
  const cacheKey = `${scope ?? '*'}\u0000${sameOwner}`;
  const cached = index.grouped.get(cacheKey);
  if (cached?.version === index.version) return cached.groups;
  const groups = [...groupRows(index.rows.values(), scope, sameOwner).entries()]
    .filter(([, members]) => members.length > 1)
    .map(([text, members]) => ({ key: groupKey(text), members: members.sort(compareMergeSurvivor) }))
    // Largest first, then the oldest survivor first, so pages are stable between calls.
    .sort((a, b) => b.members.length - a.members.length || compareMergeSurvivor(a.members[0]!, b.members[0]!));
  index.grouped.set(cacheKey, { version: index.version, groups });
  return groups;
}

const DUPLICATE_INDEX = derivedIndexKey('curation.duplicates', () => new DuplicateIndex());

export function findDuplicates(engine: EngineReader, q: DuplicateQuery): DuplicatePage {
  const index = engine.get(DUPLICATE_INDEX).get();
  const dismissed = new Set(q.dismissed);
  const groups = groupsOf(index, q.scope, q.same_owner).filter((g) => !dismissed.has(g.key));
  const page = groups.slice(q.offset, q.offset + q.limit);
  const titles = titlesOf(engine.store, page.flatMap((g) => g.members.map((m) => m.id)));
  return {
    groups: page.map((g) => {
      const owners = mergeOwners(g.members);
      return {
        key: g.key,
        survivor: g.members[0]!.id,
        owners,
        cross_owner: owners.length > 1,
        members: g.members.map((m) => ({
          id: m.id,
          type: m.type,
          owner: m.owner,
          head: titles.get(m.id) || m.head,
          created_at: m.created_at,
          strength: m.strength,
        })),
      };
    }),
    total_groups: groups.length,
    total_memories: groups.reduce((n, g) => n + g.members.length, 0),
    scanned: index.rows.size,
  };
}

function groupKey(normalized: string): string {
  return createHash('sha256').update(normalized).digest('hex').slice(0, 16);
}
