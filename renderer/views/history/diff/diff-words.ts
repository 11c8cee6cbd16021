/**
 * The diff in words: each kind of change with its label and count phrase, and each writer of a
 * change named for people (a journalled change by its number and label, an agent by its owner, a
 * program that is not Mnemo as "foreign writer").
 */
import type { ChangeAuthor } from '../../../../core/api/contract/store.js';
import { plural } from '../../../api/errors.js';

export type MemoryKind = 'added' | 'changed' | 'archived' | 'restored' | 'deleted' | 'accessed';
export type EdgeKind = 'linked' | 'unlinked' | 'changed';

export const MEMORY_KINDS: MemoryKind[] = ['added', 'changed', 'archived', 'restored', 'deleted'];
export const EDGE_KINDS: EdgeKind[] = ['linked', 'unlinked'];

/** The kinds as the chips and badges name them (an edge whose weight changed is "reweighted"). */
export const KIND_LABELS: Record<string, string> = {
  added: 'added',
  changed: 'changed',
  archived: 'archived',
  restored: 'restored',
  deleted: 'deleted',
  accessed: 'accessed',
  linked: 'linked',
  unlinked: 'unlinked',
  'edge-changed': 'reweighted',
};

/** "3 memories added", "1 edge unlinked". */
export function kindCount(kind: string, n: number): string {
  const edge = kind === 'linked' || kind === 'unlinked' || kind === 'edge-changed';
  return `${edge ? plural(n, 'edge') : plural(n, 'memory', 'memories')} ${KIND_LABELS[kind] ?? kind}`;
}

/**
 * What a change's writer was, in words: `who` follows "by" after a journalled change's name (null:
 * nothing to add, the change names itself), and stands alone for a write outside the journal.
 */
export function authorWords(a: ChangeAuthor): { who: string | null; kind: 'journal' | 'mnemo' | 'foreign' } {
  if (a.kind === 'foreign') return { who: 'foreign writer', kind: 'foreign' };
  const agent = a.owner ? `agent ${a.owner}` : a.credential_id ? 'an agent' : null;
  // A journalled change without an agent was the operator's (the workbench or the CLI): say so.
  if (a.kind === 'journal') return { who: agent ?? 'operator', kind: 'journal' };
  // Outside the journal Mnemo writes only accesses (counters, recency) and its own indexes.
  return { who: `Mnemo, outside the journal (an access)${agent ? ` by ${agent}` : ''}`, kind: 'mnemo' };
}

/** "1 change", "4 changes" by the writers listed. */
export const changesCount = (n: number) => plural(n, 'change');
