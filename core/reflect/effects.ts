/**
 * What committing reflection operations does to the store, counted one way for both sides of a
 * commit: the review's preview counts the accepted operations with it, and apply counts the ones it
 * applied with it, so "+25,946 edges" before a commit is "+25,946 edges" after it (less what was
 * skipped, which the result lists).
 */
import type { CommitEffects, PlanOp } from './types.js';

export type { CommitEffects } from './types.js';

export const noEffects = (): CommitEffects => ({ edges: 0, archived: 0, deleted: 0, rescored: 0, created: 0 });

/** Adds one operation's effect to `e`. */
export function addEffect(e: CommitEffects, o: PlanOp): void {
  switch (o.op) {
    case 'link':
      e.edges++;
      break;
    case 'merge':
      e.edges += 1 + o.edges_moved.length;
      e.archived++;
      break;
    case 'rescore':
      e.rescored++;
      break;
    case 'prune':
      if (o.action === 'delete') e.deleted++;
      else e.archived++;
      break;
    case 'reconcile':
      e.created++;
      e.archived += o.archive.length;
      break;
    case 'abstract':
    case 'episode':
      e.created++;
      break;
  }
}

/** "+33 edges, 3 archived, 12 rescored": the parts that are not zero (the workbench's CommitBar words them alike). */
export function effectsPhrase(e: CommitEffects): string {
  const parts = [
    e.edges ? `+${e.edges.toLocaleString('en-US')} edges` : '',
    e.archived ? `${e.archived.toLocaleString('en-US')} archived` : '',
    e.deleted ? `${e.deleted.toLocaleString('en-US')} deleted` : '',
    e.rescored ? `${e.rescored.toLocaleString('en-US')} rescored` : '',
    e.created ? `${e.created.toLocaleString('en-US')} created` : '',
  ].filter(Boolean);
  return parts.length ? parts.join(', ') : 'no changes';
}
