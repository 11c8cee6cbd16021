/**
 * The facet counts beside the list are taken under the list's own archived state, so "info 604" next
 * to the Type box is what ticking it lists (counting archived rows too made it 618 over 604 rows).
 */
export type ArchivedState = 'live' | 'archived' | 'all';

export function toFacetInput(f: { archived: ArchivedState }): { archived: ArchivedState; tag_limit: number } {
  return { archived: f.archived, tag_limit: 300 };
}
