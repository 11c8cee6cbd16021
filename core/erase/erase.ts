/**
 * Erasing, for every door (the CLI's `mnemo erase`, the API's `memory.erase`, the MCP tool
 * `erase`, the workbench): forgetting that can be proved. The store removes the memories from every
 * place their content lives and scrubs a matched text out of every other place
 * (core/store/shared/erase-*.ts); here the engine's own copies go too (the derived indexes are
 * built again, the index sidecar's snapshots and the erased memories' rows of the list's text
 * search are dropped and the file rewritten), owners are checked, and the receipt is made: what went from each place (counts), when
 * and by whom, and what no store can reach.
 *
 * The belief layer derives dimensions from observations; this room cannot import it (a sibling
 * feature), so the caller hands down how to derive them again (`rebuildBeliefs`), as the journal's
 * follow-ups are handed to a store.
 */
import { badInput, MnemoError } from '../errors.js';
import { memoryHead } from '../model/memory.js';
import { roleOf } from '../model/owner.js';
import { MATCH_MAX_CHARS, MATCH_MIN_CHARS } from '../model/erase-text.js';
import { IndexSidecar } from '../store/derived/index-sidecar.js';
import type { ErasePhase, ErasePlaceCounts, ErasePlan, EraseReclaim, EraseSelector } from '../store/port/port.js';
import type { Engine, EngineReader } from '../engine/engine.js';
import type { RunPacing } from '../model/run-pacing.js';

/** What the index sidecar held of the erased memories: every index snapshot (dropped whole: one cannot be edited row by row), their rows of the list's text search. */
export interface EraseDerived {
  index_snapshots: number;
  text_search_rows: number;
  /** Whether the sidecar file exists at all (none for an in-memory store, or snapshots never written). */
  sidecar: string | null;
  problems: string[];
}

/** A memory the erase names, for the confirmation: its head only when it is live (a gone one's text is what is being erased). */
export interface EraseSample {
  id: string;
  owner: string;
  live: boolean;
  head: string | null;
}

/** A dry run: what an erase would remove, and where it would not reach. Nothing is written. */
export interface EraseDryRun {
  dry_run: true;
  selector: Record<string, unknown>;
  memories: { total: number; live: number; gone: number };
  sample: EraseSample[];
  counts: ErasePlaceCounts;
  derived: EraseDerived;
  /** How the bytes would be made to go, and what that costs. */
  reclaim: { method: EraseReclaim['method']; cost: string };
  not_reached: string[];
  planned_in_s: number;
}

/** The receipt: kept in the journal too (its erase entry), with no erased content. */
export interface EraseReceipt {
  dry_run: false;
  change_id: number;
  erased_at: number;
  erased_at_iso: string;
  by: string;
  selector: Record<string, unknown>;
  memories: { total: number; live: number; gone: number };
  counts: ErasePlaceCounts;
  derived: EraseDerived;
  reclaim: EraseReclaim;
  not_reached: string[];
}

/** Who erases: the operator (CLI, workbench, API), or an agent held to its own memories. */
export interface EraseActor {
  /** As the receipt names them: "operator", "agent coder@1". */
  by: string;
  /** An agent's owner: it may erase only memories of its own role (never a shared, unowned one). */
  agentOwner?: string;
}

export interface EraseHooks {
  /** Derives the belief dimensions of these entities again from what is left (the belief layer's rebuild). */
  rebuildBeliefs?: (entities: readonly string[]) => void;
  onProgress?: (phase: ErasePhase, done: number, total: number) => void;
  /** Tests of the rows alone: leave the files as they are. */
  skipReclaim?: boolean;
  /** How the erase shares the write lock (the session's; tests use small batches). */
  pacing?: RunPacing;
}

const SAMPLE = 20;

/** What no store can reach, whichever it is (docs/erasing.md). */
export function notReached(backend: 'sqlite' | 'postgres'): string[] {
  const common = [
    'copies made before the erase: exports (mnemo export), copies (mnemo copy), backups and file-system snapshots of the store',
    "what an agent already read: its context window, its logs, anything it wrote elsewhere",
    'other processes that had the store open keep in memory what they had read until they read it again',
  ];
  return backend === 'postgres'
    ? ["PostgreSQL's write-ahead log (pg_wal) until its segments are recycled, WAL archives, replicas' own WAL, and base backups", ...common]
    : [...common];
}

function reclaimCost(backend: 'sqlite' | 'postgres'): { method: EraseReclaim['method']; cost: string } {
  return backend === 'postgres'
    ? { method: 'vacuum_full', cost: 'VACUUM (FULL, ANALYZE) of each table the erase wrote: each is rewritten whole under an exclusive lock, so reads and writes of that table wait until it is done' }
    : { method: 'zeroed', cost: "what the erase deletes is overwritten with zeros as it goes (secure_delete), then the file's free pages are rewritten with zeros and its WAL truncated, in short transactions in a worker thread: other writers wait for one short transaction at most; readers go on. The file does not shrink" };
}

const backendOf = (engine: EngineReader): 'sqlite' | 'postgres' => (engine.store.path.startsWith('postgres') ? 'postgres' : 'sqlite');

/** Checks a selector's values at the door's depth (zod has checked their types). */
export function checkSelector(selector: EraseSelector): EraseSelector {
  if (selector.kind === 'match') {
    const n = [...selector.text].length;
    if (selector.text.trim().length < MATCH_MIN_CHARS) throw badInput(`the text to match has ${n} characters; give at least ${MATCH_MIN_CHARS} (fewer would match half of any store)`, { field: 'match' });
    if (n > MATCH_MAX_CHARS) throw badInput(`the text to match has ${n} characters; at most ${MATCH_MAX_CHARS}`, { field: 'match' });
  }
  if (selector.kind === 'ids' && selector.ids.length === 0) throw badInput('give at least one id to erase', { field: 'ids' });
  return selector;
}

/** An agent erases only memories of its own role; the refusal names the others and writes nothing. */
function checkOwners(plan: ErasePlan, actor: EraseActor): void {
  if (actor.agentOwner === undefined) return;
  const mine = roleOf(actor.agentOwner);
  const foreign = plan.targets.filter((t) => t.owner === '' || roleOf(t.owner) !== mine);
  if (foreign.length === 0) return;
  const named = foreign.slice(0, 5).map((t) => `${t.id.slice(0, 8)} (${t.owner === '' ? 'shared' : JSON.stringify(t.owner)})`);
  throw new MnemoError(
    'permission',
    `an agent erases only its own memories; ${named.join(', ')}${foreign.length > 5 ? ` and ${foreign.length - 5} more` : ''} ${foreign.length === 1 ? 'is' : 'are'} not yours (you are ${JSON.stringify(actor.agentOwner)}); an operator can erase ${foreign.length === 1 ? 'it' : 'them'}`,
    { ids: foreign.map((t) => t.id), owner: actor.agentOwner },
  );
}

/** The sidecar beside the store, if one exists (never created here). */
function existingSidecar(engine: EngineReader): IndexSidecar | null {
  const opened = engine.indexSnapshots.openedSidecar();
  if (opened) return opened;
  const location = engine.store.indexSidecarLocation();
  if (!location) return null;
  // Opened only to read or drop what it holds; a store with snapshots off may still have one another process wrote.
  return IndexSidecar.exists(location.path) ? IndexSidecar.open(engine.store) : null;
}

function derivedCounts(engine: EngineReader, ids: readonly string[]): EraseDerived {
  const sidecar = existingSidecar(engine);
  if (!sidecar) return { index_snapshots: 0, text_search_rows: 0, sidecar: null, problems: [] };
  const c = sidecar.contents(ids);
  return { index_snapshots: c.snapshots, text_search_rows: c.text_rows, sidecar: sidecar.path, problems: [] };
}

function memoriesOf(plan: ErasePlan): EraseReceipt['memories'] {
  const live = plan.targets.filter((t) => t.live).length;
  return { total: plan.targets.length, live, gone: plan.targets.length - live };
}

/** What an erase would remove (a dry run); throws for an agent naming memories that are not its own. */
export async function planEraseOf(engine: EngineReader, selector: EraseSelector, actor: EraseActor): Promise<{ plan: ErasePlan; dry: EraseDryRun }> {
  const plan = await engine.store.queries.planErase(checkSelector(selector));
  checkOwners(plan, actor);
  const sampleIds = plan.targets.slice(0, SAMPLE);
  const rows = engine.store.getMany(sampleIds.filter((t) => t.live).map((t) => t.id));
  const backend = backendOf(engine);
  const dry: EraseDryRun = {
    dry_run: true,
    selector: selectorNote(plan.selector),
    memories: memoriesOf(plan),
    sample: sampleIds.map((t) => {
      const m = rows.get(t.id);
      return { id: t.id, owner: t.owner, live: t.live, head: m ? memoryHead(m) : null };
    }),
    counts: plan.counts,
    derived: derivedCounts(engine, plan.targets.map((t) => t.id)),
    reclaim: reclaimCost(backend),
    not_reached: notReached(backend),
    planned_in_s: plan.planned_in_s,
  };
  return { plan, dry };
}

/** The selector as the receipt names it: a match by its length only (its text is what is being erased). */
function selectorNote(selector: EraseSelector): Record<string, unknown> {
  if (selector.kind === 'match') return { kind: 'match', chars: [...selector.text].length };
  if (selector.kind === 'owner') return { kind: 'owner', owner: selector.owner };
  return { kind: 'ids', ids: selector.ids.slice(0, 100), n: selector.ids.length };
}

/**
 * Erases what the plan names; no way back once it starts. The engine's derived indexes are built
 * again from what is left (the store tells them to), and the sidecar's snapshots and the erased
 * memories' text search rows are dropped and the file rewritten. Other processes patch the
 * erase into their indexes from the change feed, as any delete.
 */
export async function eraseNow(engine: Engine, plan: ErasePlan, actor: EraseActor, hooks: EraseHooks = {}): Promise<EraseReceipt> {
  checkOwners(plan, actor);
  let derived: EraseDerived = { index_snapshots: 0, text_search_rows: 0, sidecar: null, problems: [] };
  const purgeSidecar = (erased: readonly string[]) => {
    const sidecar = existingSidecar(engine);
    if (!sidecar) return;
    const purged = sidecar.purge(erased, engine.store.feedPosition());
    derived = { index_snapshots: purged.snapshots, text_search_rows: purged.text_rows, sidecar: sidecar.path, problems: purged.problems };
  };
  const opts = {
    by: actor.by,
    afterRows: purgeSidecar,
    ...(hooks.onProgress ? { onProgress: hooks.onProgress } : {}),
    ...(hooks.rebuildBeliefs ? { rebuildBeliefs: hooks.rebuildBeliefs } : {}),
    ...(hooks.skipReclaim ? { skipReclaim: true } : {}),
  };
  const outcome = await engine.store.runs.erase(plan, opts, hooks.pacing);
  return {
    dry_run: false,
    change_id: outcome.change_id,
    erased_at: outcome.at,
    erased_at_iso: new Date(outcome.at * 1000).toISOString(),
    by: outcome.by,
    selector: selectorNote(plan.selector),
    memories: memoriesOf(plan),
    counts: outcome.counts,
    derived,
    reclaim: outcome.reclaim,
    not_reached: notReached(backendOf(engine)),
  };
}
