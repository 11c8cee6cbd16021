/**
 * Labels from a store's own access log, by the "used later in the session" rule
 * (recall/used-later.ts: a memory a recall returned and the same session then dereferenced or
 * reinforced was used). This module turns the labelled sessions into training and held-out sets.
 *
 * Sessions are replayed on the store as it stood before them (Engine.openAsOf, one engine per
 * time window of sessions), so later accesses (the uses themselves) cannot leak into recency.
 */
import { Engine, type EngineOptions } from '../engine/engine.js';
import { badInput, MnemoError } from '../errors.js';
import { BEFORE_ACCESS_S } from '../recall/replay.js';
import { loggedSessions, type LabelledQuery, type LoggedSession } from '../recall/used-later.js';
import type { LabelledStore } from './labels.js';

export { loggedSessions, type LoggedSession };

export const MIN_LABELLED_SESSIONS = 5;

export interface LogLabelOptions {
  /** Share of the labelled sessions, the latest ones, held out (default 0.3). */
  heldOutShare?: number;
  minSessions?: number;
  /** At most this many labelled sessions, the latest ones. */
  maxSessions?: number;
  /**
   * Sessions are replayed in at most this many time windows per split, each on one engine as of
   * the window's first session (default 4): an engine holds the store's indexes in memory, so
   * one per session would not fit a large store.
   */
  windows?: number;
  engine?: Omit<EngineOptions, 'readonly' | 'convert' | 'create'>;
}

export interface LogLabels {
  sessions: number;
  train: LabelledStore[];
  heldOut: LabelledStore[];
  /** Windows ranked on the store as it is now, because the store's history does not reach back to them. */
  onPresentStore: number;
  /** Labelled queries dropped because none of their used memories existed yet at their window's start. */
  droppedQueries: number;
  close(): void;
}

/** The store's history does not reach the instant (or the store has none): time travel cannot show it. */
function beyondHistory(err: unknown): boolean {
  const reason = err instanceof MnemoError ? err.details?.['reason'] : undefined;
  return reason === 'before_history' || reason === 'no_history';
}

/** Consecutive groups, at most `n`, as even as they come. */
function chunks<T>(items: readonly T[], n: number): T[][] {
  const count = Math.min(n, items.length);
  return Array.from({ length: count }, (_, i) => items.slice(Math.floor((i * items.length) / count), Math.floor(((i + 1) * items.length) / count)));
}

/**
 * Splits the labelled sessions by time (the latest held out: the fit is judged on sessions that
 * came after the ones it learned from) and opens one engine per window of sessions, on the store
 * as it stood just before the window's first labelled recall. A window the store's history does
 * not reach is ranked on the store as it is now, and counted (`onPresentStore`): there, later
 * accesses do leak into recency.
 */
export function logLabels(path: string, sessions: readonly LoggedSession[], opts: LogLabelOptions = {}): LogLabels {
  const min = opts.minSessions ?? MIN_LABELLED_SESSIONS;
  if (sessions.length < min) {
    throw badInput(
      `the access log has ${sessions.length} session(s) with a labelled recall (a recall whose result the same session later dereferenced or reinforced); tuning from the log needs at least ${min}`,
      { field: 'log', sessions: sessions.length, threshold: min },
    );
  }
  const used = sessions.slice(-(opts.maxSessions ?? 200));
  const share = opts.heldOutShare ?? 0.3;
  const heldOutCount = Math.min(used.length - 1, Math.max(1, Math.round(used.length * share)));
  const windows = opts.windows ?? 4;
  const engines: Engine[] = [];
  let present: Engine | null = null;
  let onPresentStore = 0;
  let droppedQueries = 0;
  const engineAt = (at: number): Engine => {
    try {
      const e = Engine.openAsOf(path, at, opts.engine);
      engines.push(e);
      return e;
    } catch (err) {
      if (!beyondHistory(err)) throw err;
      onPresentStore++;
      if (!present) engines.push((present = Engine.open(path, { ...opts.engine, readonly: true })));
      return present;
    }
  };
  const open = (group: readonly LoggedSession[]): LabelledStore => {
    const engine = engineAt(group[0]!.start - BEFORE_ACCESS_S);
    const queries: LabelledQuery[] = [];
    for (const q of group.flatMap((s) => s.queries)) {
      const existing = engine.store.getMany(q.relevant);
      const relevant = q.relevant.filter((id) => existing.has(id));
      if (relevant.length === 0) droppedQueries++;
      else queries.push({ ...q, relevant });
    }
    return { engine, queries };
  };
  try {
    const train = chunks(used.slice(0, used.length - heldOutCount), windows).map(open);
    const heldOut = chunks(used.slice(used.length - heldOutCount), windows).map(open);
    return { sessions: sessions.length, train, heldOut, onPresentStore, droppedQueries, close: () => engines.forEach((e) => e.close()) };
  } catch (err) {
    for (const e of engines) e.close();
    throw err;
  }
}
