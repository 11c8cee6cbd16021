/**
 * Labels from a store's own access log. The rule: within one session (the accesses' session_ref),
 * a memory that a recall returned and that the same session then dereferenced or reinforced was
 * used; the recall's query is labelled with the memories it returned that were used.
 *   - A recall is the `recalled` or `searched` accesses logged together (same instant, reader,
 *     session and query); `injected` is spontaneous, nobody asked, so it labels nothing.
 *   - A use is credited to the latest earlier recall of the session that returned the memory.
 *   - A recall none of whose results was used labels nothing: an unused result may be a bad one
 *     or one the agent did not need, and the log cannot tell them apart.
 *   - Accesses without a session_ref cannot be tied to a recall and are ignored.
 * Its biases (docs/recall.md § Tuning): only what was shown can be used (position bias: a memory
 * ranked below k is never labelled, so the fit favours small moves around the profile that
 * logged the recalls), and a memory used once is shown and used more (popularity feedback).
 *
 * Each labelled session is replayed on the store as it stood just before its first labelled
 * recall (Engine.openAsOf), so later accesses (the uses themselves) cannot leak into recency.
 */
import { Engine, type EngineOptions } from '../engine/engine.js';
import { badInput } from '../errors.js';
import { BEFORE_ACCESS_S } from '../recall/replay.js';
import { auditEvents, type AuditEvent } from '../store/access-queries.js';
import type { StoreReader } from '../store/port.js';
import type { LabelledQuery, LabelledStore } from './labels.js';

const RECALL_CHANNELS = ['recalled', 'searched'];
const USE_CHANNELS = ['deref', 'reinforced'];
const PAGE = 5000;

export interface LoggedSession {
  session: string;
  /** The first labelled recall's time. */
  start: number;
  queries: LabelledQuery[];
}

interface ShownRecall {
  query: LabelledQuery;
  used: Set<string>;
  shown: string[];
}

/** Every session with at least one labelled recall, in order of its first one. */
export function loggedSessions(store: StoreReader, opts: { maxEvents?: number } = {}): LoggedSession[] {
  const maxEvents = opts.maxEvents ?? 1_000_000;
  const recalls = new Map<string, ShownRecall[]>();
  /** session → memory id → the latest recall that showed it. */
  const shownBy = new Map<string, Map<string, ShownRecall>>();
  let open = null as { key: string; recall: ShownRecall } | null;
  for (let offset = 0; offset < maxEvents; offset += PAGE) {
    const page = auditEvents(store, { channels: [...RECALL_CHANNELS, ...USE_CHANNELS], order: 'asc', limit: Math.min(PAGE, maxEvents - offset), offset });
    if (!page || page.events.length === 0) break;
    for (const e of page.events) {
      const session = e.session_ref;
      if (!session) continue;
      if (RECALL_CHANNELS.includes(e.channel)) {
        if (e.query === null) continue;
        const key = JSON.stringify([e.ts, e.reader_owner, session, e.query, e.channel]);
        if (open?.key !== key) {
          const recall: ShownRecall = { query: queryOf(e), used: new Set(), shown: [] };
          open = { key, recall };
          let list = recalls.get(session);
          if (!list) recalls.set(session, (list = []));
          list.push(recall);
        }
        open.recall.shown.push(e.memory_id);
        let shown = shownBy.get(session);
        if (!shown) shownBy.set(session, (shown = new Map()));
        shown.set(e.memory_id, open.recall);
      } else {
        open = null;
        const recall = shownBy.get(session)?.get(e.memory_id);
        if (recall && recall.query.asOf <= e.ts) recall.used.add(e.memory_id);
      }
    }
    if (page.events.length < PAGE) break;
  }
  const out: LoggedSession[] = [];
  for (const [session, list] of recalls) {
    const queries = list.filter((r) => r.used.size > 0).map((r) => ({ ...r.query, relevant: r.shown.filter((id) => r.used.has(id)) }));
    if (queries.length > 0) out.push({ session, start: queries[0]!.asOf, queries });
  }
  return out.sort((a, b) => a.start - b.start || (a.session < b.session ? -1 : 1));
}

function queryOf(e: AuditEvent): LabelledQuery {
  const ctx = (e.context ?? {}) as { owner?: string | null };
  return { id: `event:${e.event_id}`, query: e.query!, owner: ctx.owner ?? null, asOf: e.ts, relevant: [] };
}

export const MIN_LABELLED_SESSIONS = 5;

export interface LogLabelOptions {
  /** Share of the labelled sessions, the latest ones, held out (default 0.3). */
  heldOutShare?: number;
  minSessions?: number;
  /** At most this many labelled sessions, the latest ones (each holds an engine on the store as of then). */
  maxSessions?: number;
  engine?: Omit<EngineOptions, 'readonly' | 'convert' | 'create'>;
}

export interface LogLabels {
  sessions: number;
  train: LabelledStore[];
  heldOut: LabelledStore[];
  close(): void;
}

/**
 * Splits the labelled sessions by time (the latest held out: the fit is judged on sessions that
 * came after the ones it learned from) and opens one engine per session as of its start.
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
  const engines: Engine[] = [];
  const open = (s: LoggedSession): LabelledStore => {
    const engine = Engine.openAsOf(path, s.start - BEFORE_ACCESS_S, opts.engine);
    engines.push(engine);
    return { engine, queries: s.queries };
  };
  try {
    return {
      sessions: sessions.length,
      train: used.slice(0, used.length - heldOutCount).map(open),
      heldOut: used.slice(used.length - heldOutCount).map(open),
      close: () => engines.forEach((e) => e.close()),
    };
  } catch (err) {
    for (const e of engines) e.close();
    throw err;
  }
}
