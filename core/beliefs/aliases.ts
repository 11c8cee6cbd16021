/**
 * Applying or rejecting alias proposals. Each is one journalled change (undoable). A plan applies
 * only to the log it was made from: if observations, aliases or rejections changed since, the
 * apply is refused and the caller plans again.
 */
import { badInput, MnemoError } from '../errors.js';
import { aliasJournalKey, rejectionJournalKey } from '../model/belief-journal-keys.js';
import type { BeliefModel } from './model.js';

export interface MergeRequest {
  alias: string;
  canonical: string;
  divergence?: number | null;
  shared?: number | null;
}

/** The merge a proposal asks for. */
export function mergeOf(p: { alias: string; canonical: string; divergence: number; shared: readonly string[] }): MergeRequest {
  return { alias: p.alias, canonical: p.canonical, divergence: p.divergence, shared: p.shared.length };
}

export interface MergeResult {
  change_id: number | null;
  merged: { alias: string; canonical: string }[];
}

export function applyAliasMerges(model: BeliefModel, merges: readonly MergeRequest[], basis: string | undefined, now: number): MergeResult {
  if (merges.length === 0) throw badInput('no alias merges given; plan with "mnemo beliefs aliases" and pass the proposals to apply');
  const store = model.store;
  const { result, changeId } = store.change(
    `beliefs: merge ${merges.length} alias${merges.length > 1 ? 'es' : ''}`,
    'beliefs.alias-merge',
    () => {
      if (basis !== undefined && basis !== model.tables.basis()) {
        throw new MnemoError('conflict', 'the beliefs changed since this alias plan was made (new observations, merges or rejections); plan again and review the new proposals');
      }
      model.tables.prepareWrite();
      const aliases = model.aliasMap();
      const known = new Set(model.tables.entities(undefined, 1_000_000, 0).map((e) => e.entity));
      const touched = new Set<string>();
      const merged: { alias: string; canonical: string }[] = [];
      for (const m of merges) {
        const alias = model.resolve(m.alias, aliases);
        const canonical = model.resolve(m.canonical, aliases);
        if (alias === canonical) throw badInput(`${m.alias} and ${m.canonical} are already one entity (${canonical})`);
        for (const n of [m.alias, m.canonical]) {
          if (!known.has(model.resolve(n, aliases))) throw badInput(`no entity named ${JSON.stringify(n)} has beliefs in this store`);
        }
        // Everything that pointed at the alias now points at the canonical name (no chains).
        for (const [a, target] of [...aliases]) {
          if (target === alias) {
            store.journal.capture(aliasJournalKey(a));
            model.tables.putAlias({ ...model.tables.alias(a)!, canonical });
            aliases.set(a, canonical);
          }
        }
        store.journal.capture(aliasJournalKey(alias));
        model.tables.putAlias({ alias, canonical, divergence: m.divergence ?? null, shared: m.shared ?? null, merged_at: now });
        aliases.set(alias, canonical);
        touched.add(alias);
        touched.add(canonical);
        merged.push({ alias, canonical });
      }
      model.rebuild(touched);
      return merged;
    },
    { merges: merges.map((m) => ({ alias: m.alias, canonical: m.canonical })) },
  );
  return { change_id: changeId, merged: result };
}

export function rejectAliasPair(model: BeliefModel, a: string, b: string, now: number): { change_id: number | null } {
  if (a === b) throw badInput('an alias pair needs two different names');
  const [x, y] = a < b ? [a, b] : [b, a];
  const store = model.store;
  const { changeId } = store.change(`beliefs: reject alias ${x} / ${y}`, 'beliefs.alias-reject', () => {
    model.tables.prepareWrite();
    store.journal.capture(rejectionJournalKey(x, y));
    model.tables.putRejection(x, y, now);
  });
  return { change_id: changeId };
}
