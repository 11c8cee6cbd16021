/** What each place of an erase is called in the workbench (the engine's counts, core/store/port/erase.ts). */
import type { ErasePlaceCounts } from '../../../core/store/port/erase.js';

export const PLACE_NAMES: Record<keyof ErasePlaceCounts, string> = {
  memories: 'Memories',
  edges: 'Edges into or out of them',
  journal_images: 'Journal images (replaced by an erased marker)',
  journal_changes: 'Earlier changes that can no longer be undone',
  journal_scrubbed: 'Journal rows with the text scrubbed',
  feed_rows: 'Change-feed images (time travel shows "erased")',
  feed_scrubbed: 'Change-feed rows with the text scrubbed',
  access_events: 'Access events, with their queries',
  access_queries: 'Other access queries with the text scrubbed',
  access_rings: "Other memories' access rings scrubbed",
  tombstones: 'Tombstones',
  belief_deltas: 'Belief observations',
  belief_evidence: 'Belief evidence scrubbed',
  belief_dimensions: 'Belief dimensions derived again',
  belief_aliases: 'Belief aliases',
  maintenance: 'Reports and settings scrubbed',
};

export const PLACE_ORDER = Object.keys(PLACE_NAMES) as (keyof ErasePlaceCounts)[];
