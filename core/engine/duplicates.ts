/**
 * The near-duplicate finder (modelled on Anki's "Find Duplicates"): live memories whose text is the
 * same once case, punctuation and spacing are set aside, grouped, largest group first. Each group
 * names its owners and the survivor a merge would keep (the shared merge-order rule), so the
 * curator can merge it from the list or dismiss it.
 */
import { createHash } from 'node:crypto';
import { compareMergeSurvivor, mergeOwners } from '../model/merge-order.js';
import { memoryHead } from '../model/memory.js';
import type { OwnerScope } from '../model/owner.js';
import { duplicateCandidateRows, titlesOf, type DuplicateCandidateRow } from '../store/duplicate-rows.js';
import type { Engine } from './engine.js';

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

/** Case, punctuation and runs of spaces do not make two memories different. */
export function normalizeForDuplicates(text: string): string {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

function groupRows(rows: DuplicateCandidateRow[], sameOwner: boolean): Map<string, DuplicateCandidateRow[]> {
  const byKey = new Map<string, DuplicateCandidateRow[]>();
  for (const r of rows) {
    const text = normalizeForDuplicates(r.content);
    if (text === '') continue;
    const key = sameOwner ? `${r.owner}\u0000${text}` : text;
    const list = byKey.get(key);
    if (list) list.push(r);
    else byKey.set(key, [r]);
  }
  return byKey;
}

export function findDuplicates(engine: Engine, q: DuplicateQuery): DuplicatePage {
  const db = engine.store.db;
  const rows = duplicateCandidateRows(db, q.scope);
  const dismissed = new Set(q.dismissed);
  const groups = [...groupRows(rows, q.same_owner).entries()]
    .filter(([, members]) => members.length > 1)
    .map(([text, members]) => ({ key: groupKey(text), members: members.sort(compareMergeSurvivor) }))
    .filter((g) => !dismissed.has(g.key))
    // Largest first, then the oldest survivor first, so pages are stable between calls.
    .sort((a, b) => b.members.length - a.members.length || compareMergeSurvivor(a.members[0]!, b.members[0]!));
  const page = groups.slice(q.offset, q.offset + q.limit);
  const titles = titlesOf(db, page.flatMap((g) => g.members.map((m) => m.id)));
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
          head: memoryHead({ title: titles.get(m.id) ?? null, content: m.content }),
          created_at: m.created_at,
          strength: m.strength,
        })),
      };
    }),
    total_groups: groups.length,
    total_memories: groups.reduce((n, g) => n + g.members.length, 0),
    scanned: rows.length,
  };
}

function groupKey(normalized: string): string {
  return createHash('sha256').update(normalized).digest('hex').slice(0, 16);
}
