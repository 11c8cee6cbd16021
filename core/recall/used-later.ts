/**
 * The "used later in the session" rule: within one session (the accesses' session_ref), a memory
 * that a recall returned and that the same session then dereferenced or reinforced was used; the
 * recall's query is labelled with the memories it returned that were used.
 *   - A recall is the `recalled` or `searched` accesses logged together (same instant, reader,
 *     session and query); `injected` is spontaneous, nobody asked, so it labels nothing.
 *   - A use is credited to the latest earlier recall of the session that returned the memory.
 *   - A recall none of whose results was used labels nothing: an unused result may be a bad one
 *     or one the agent did not need, and the log cannot tell them apart.
 *   - Accesses without a session_ref cannot be tied to a recall and are ignored.
 * Its biases (docs/tuning.md § Label rules): only what was shown can be used (position bias), and
 * a memory used once is shown and used more (popularity feedback).
 *
 * It lives with recall, below the tuner, because two rooms read it: `mnemo tune log` (core/tune)
 * fits on it, and the Scorer lab (recall/lab) scores rankings against it.
 */
import type { OwnerScope } from '../model/owner.js';
import type { StoreReader } from '../store/port/port.js';
import type { SessionEvent } from '../store/port/port.js';

/** A query with the memories it should find (what the tuner fits against and the lab scores by). */
export interface LabelledQuery {
  /** For reports (a benchmark's question id, a logged recall's event id). */
  id: string;
  query: string;
  /** The owner scope the query is asked with; null = every owner. */
  owner: OwnerScope;
  /** The ranking's clock (epoch seconds): recency is read as of then. */
  asOf: number;
  /** The memories the query should find (non-empty: a query without any has no defined recall). */
  relevant: readonly string[];
}

const RECALL_CHANNELS = ['recalled', 'searched'];
const USE_CHANNELS = ['deref', 'reinforced'];

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
export function loggedSessions(store: StoreReader): LoggedSession[] {
  const recalls = new Map<string, ShownRecall[]>();
  /** session → memory id → the latest recall that showed it. */
  const shownBy = new Map<string, Map<string, ShownRecall>>();
  let open = null as { key: string; recall: ShownRecall } | null;
  for (const e of store.queries.sessionAccessEvents([...RECALL_CHANNELS, ...USE_CHANNELS])) {
    const session = e.session_ref;
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
  const out: LoggedSession[] = [];
  for (const [session, list] of recalls) {
    const queries = list.filter((r) => r.used.size > 0).map((r) => ({ ...r.query, relevant: r.shown.filter((id) => r.used.has(id)) }));
    if (queries.length > 0) out.push({ session, start: queries[0]!.asOf, queries });
  }
  return out.sort((a, b) => a.start - b.start || (a.session < b.session ? -1 : 1));
}

function queryOf(e: SessionEvent): LabelledQuery {
  return { id: `event:${e.event_id}`, query: e.query!, owner: e.owner ?? null, asOf: e.ts, relevant: [] };
}
