/**
 * The MCP tools: the reference skill's surface (remember, recall, search, update_memory, forget,
 * associate, deref, stats, reflect) plus todos and intents. Each tool is a zod input schema (the
 * SDK validates arguments against it and answers a bad argument with an error naming the field)
 * and a call into AgentMemory. Each answers with a short text for the model and the same facts as
 * structured content for programs.
 */
import { z } from 'zod';
import type { AgentMemory, RecalledMemory } from '../../core/agent/agent-memory.js';
import { memoryLabel } from '../../core/agent/inject.js';
import { agentConflicts, agentResolve } from '../../core/host/agent-conflicts.js';
import type { PairResolution } from '../../core/review/conflicts/resolve.js';
import { badInput } from '../../core/errors.js';
import { isRefKind } from '../../core/agent/references.js';
import { statsSummary } from '../../core/agent/stats.js';
import { EDGE_TYPES, MEMORY_TYPES, REF_KINDS } from '../../core/model/enums.js';
import { LADDERS } from '../../core/model/ladders.js';
import { memoryHead } from '../../core/model/memory.js';
import { describeTrigger, normalizeTrigger, triggerSpecInput } from '../../core/prospective/triggers.js';
import { asData, headLine, refLine, shortId } from './data-marking.js';

export interface ToolOutput {
  text: string;
  data: Record<string, unknown>;
}

export interface ToolDef {
  name: string;
  title: string;
  description: string;
  input: z.ZodObject;
  readOnly?: boolean;
  run(agent: AgentMemory, args: never): Promise<ToolOutput> | ToolOutput;
}

function tool<S extends z.ZodObject>(def: {
  name: string;
  title: string;
  description: string;
  input: S;
  readOnly?: boolean;
  run(agent: AgentMemory, args: z.output<S>): Promise<ToolOutput> | ToolOutput;
}): ToolDef {
  return def as unknown as ToolDef;
}

const IMPORTANCE = Object.keys(LADDERS.importance) as [string, ...string[]];
const importance = z.enum(IMPORTANCE).describe('CRITICAL | HIGH | MEDIUM | LOW | TRIVIAL: how much this should weigh on future decisions');
const memoryId = (what: string) => z.string().trim().min(6, `${what} needs the full id or a prefix of at least 6 characters`).max(200);
const refSpec = z
  .string()
  .refine((s) => {
    const at = s.indexOf(':');
    return at > 0 && isRefKind(s.slice(0, at)) && s.slice(at + 1).trim() !== '';
  }, `must be "<kind>:<key>" with kind one of ${REF_KINDS.join(', ')}`)
  .describe('kind:key, e.g. "file:docs/spec.md", "var:plan", "memory:1a2b3c4d"');
const references = z.array(refSpec).max(50).describe('pointers to live state this memory is about; re-read fresh at recall time');
const tags = z.array(z.string().trim().min(1, 'tags cannot be empty').max(200)).max(100).describe('salient keywords and entities for retrieval');
const owner = z.string().max(200).describe('omit for your own memories plus shared ones; "*" for every agent on this store; "role" or "role@instance" for one (read-only)');
const k = z.number().int('k must be a whole number').min(1, 'k must be at least 1').max(100, 'k must be at most 100');

/** What the store's redaction replaced, said to the agent: it knows its secret was not kept. */
function redactedNote(redacted: Record<string, number> | undefined): string {
  if (!redacted) return '';
  const parts = Object.entries(redacted).map(([kind, n]) => (n === 1 ? kind : `${kind} ×${n}`));
  return `; redacted before storing (the store keeps [redacted:<kind>] instead): ${parts.join(', ')}`;
}

function recalledLines(results: RecalledMemory[]): string {
  if (results.length === 0) return 'no memories matched';
  return results
    .flatMap((r) => [
      `- ${r.label} ${asData(memoryHead(r), { id: shortId(r.id), oneLine: true })} (score ${r.score.toFixed(4)}${r.superseded_by ? `; SUPERSEDED by ${shortId(r.superseded_by)}` : ''})`,
      ...r.references.slice(0, 4).map((ref) => refLine(ref, r.id)),
    ])
    .join('\n');
}

export const TOOLS: ToolDef[] = [
  tool({
    name: 'remember',
    title: 'Remember',
    description:
      'Write a NEW long-term memory you author: durable, reusable knowledge, one self-contained item per call (not transcripts). A near-duplicate of one of your memories reinforces it instead and returns ITS id; use update_memory to sharpen its wording. Returns the id.',
    input: z
      .object({
        content: z.string().min(1, 'content cannot be empty').max(100_000),
        type: z.enum(MEMORY_TYPES).default('info').describe('info | skill | episode | intent | todo | reflection | scratch'),
        importance: importance.default('MEDIUM'),
        tags: tags.optional(),
        title: z.string().max(500).optional(),
        references: references.optional(),
        force: z.boolean().optional().describe('write it even though this exact content was forgotten before'),
      })
      .strict(),
    async run(agent, a) {
      const r = await agent.remember({
        content: a.content,
        type: a.type,
        importance: a.importance,
        ...(a.tags ? { tags: a.tags } : {}),
        ...(a.title !== undefined ? { title: a.title } : {}),
        ...(a.references ? { references: a.references } : {}),
        ...(a.force ? { force: true } : {}),
      });
      const label = memoryLabel(r.memory);
      const text = r.reinforced
        ? `reinforced existing ${label} (cos ${r.cos!.toFixed(3)}): your wording, tags and references were not stored; update_memory("${r.id.slice(0, 8)}", …) to sharpen it`
        : `remembered ${label}`;
      return { text: `${text}${redactedNote(r.redacted)}`, data: { id: r.id, label, reinforced: r.reinforced, cos: r.cos, ...(r.redacted ? { redacted: r.redacted } : {}) } };
    },
  }),
  tool({
    name: 'recall',
    title: 'Recall',
    description: 'Recall memories associatively related to the query (semantic + keyword + recency + importance + graph spread). Each result carries its score components and its references resolved LIVE or DANGLING.',
    readOnly: true,
    input: z
      .object({
        query: z.string().min(1, 'query cannot be empty').max(20_000),
        k: k.default(5),
        owner: owner.optional(),
        hops: z.number().int('hops must be a whole number').min(0, 'hops must be at least 0').max(4, 'hops must be at most 4').optional().describe('graph spread depth (default 1; 0 = no spread)'),
        include_superseded: z.boolean().optional().describe('also rank memories a resolved conflict superseded (each marked with superseded_by)'),
      })
      .strict(),
    async run(agent, a) {
      const results = await agent.recall(a.query, {
        k: a.k,
        ...(a.owner !== undefined ? { owner: a.owner } : {}),
        ...(a.hops !== undefined ? { hops: a.hops } : {}),
        ...(a.include_superseded ? { include_superseded: true } : {}),
      });
      return { text: recalledLines(results), data: { results } };
    },
  }),
  tool({
    name: 'search',
    title: 'Search',
    description: 'Term-focused recall: dense + keyword retrieval without graph spread.',
    readOnly: true,
    input: z.object({ query: z.string().min(1, 'query cannot be empty').max(20_000), k: k.default(5), owner: owner.optional() }).strict(),
    async run(agent, a) {
      const results = await agent.search(a.query, { k: a.k, ...(a.owner !== undefined ? { owner: a.owner } : {}) });
      return { text: recalledLines(results), data: { results } };
    },
  }),
  tool({
    name: 'update_memory',
    title: 'Update a memory',
    description: 'Refine one of your memories: pass only the fields to change. memory_id may be the 8-character prefix shown in [type#id8]. status (todos only): OPEN | DONE | DROPPED. references replaces the pointers.',
    input: z
      .object({
        memory_id: memoryId('memory_id'),
        content: z.string().min(1, 'content cannot be empty').max(100_000).optional(),
        title: z.string().max(500).optional(),
        importance: importance.optional(),
        type: z.enum(MEMORY_TYPES).optional(),
        tags: tags.optional(),
        status: z.enum(['OPEN', 'DONE', 'DROPPED']).optional(),
        references: references.optional(),
      })
      .strict(),
    async run(agent, a) {
      const { memory_id, ...rest } = a;
      const fields = Object.fromEntries(Object.entries(rest).filter(([, v]) => v !== undefined));
      const updated = await agent.updateMemory(memory_id, fields);
      return { text: updated ? `updated ${memory_id}` : `no memory matches ${JSON.stringify(memory_id)}`, data: { updated } };
    },
  }),
  tool({
    name: 'forget',
    title: 'Forget a memory',
    description: 'Forget (archive) one of your memories that is wrong or obsolete. Writing the same content again later is refused unless forced.',
    input: z.object({ memory_id: memoryId('memory_id') }).strict(),
    async run(agent, a) {
      const forgotten = await agent.forget(a.memory_id);
      return { text: forgotten ? `forgot ${a.memory_id}` : `no memory matches ${JSON.stringify(a.memory_id)}`, data: { forgotten } };
    },
  }),
  tool({
    name: 'erase',
    title: 'Erase memories for good',
    description:
      'Erase one or more of YOUR memories for good: they are removed from every place the store keeps them (history, journal, access log, search indexes), so no undo brings them back. Use forget for a memory that is wrong or obsolete; use erase for what must not be kept at all (a secret you stored by mistake, personal data someone asked to have deleted). Shared memories and other agents\' are refused.',
    input: z.object({ memory_ids: z.array(memoryId('each memory_id')).min(1, 'give at least one memory_id').max(100, 'at most 100 memory_ids per call') }).strict(),
    async run(agent, a) {
      const r = await agent.erase(a.memory_ids);
      return {
        text: `erased ${r.memories.total} ${r.memories.total === 1 ? 'memory' : 'memories'} for good (journal change #${r.change_id}; it cannot be undone)`,
        data: { erased: r.memories.total, change_id: r.change_id, erased_at: r.erased_at, counts: r.counts },
      };
    },
  }),
  tool({
    name: 'associate',
    title: 'Associate two memories',
    description: `Link memory a_id to b_id with a directed edge. relation: ${EDGE_TYPES.join(' | ')}. The source must be yours (or shared); the target may be anyone's. With relation "contradicts" and a note, you flag a contradiction: it goes to the conflict queue with your note.`,
    input: z
      .object({
        a_id: memoryId('a_id'),
        b_id: memoryId('b_id'),
        relation: z.enum(EDGE_TYPES).default('related'),
        note: z.string().max(2_000, 'a note is at most 2000 characters').optional().describe('with relation "contradicts": why they contradict (shown in the conflict queue)'),
      })
      .strict(),
    run(agent, a) {
      const r = agent.associate(a.a_id, a.b_id, a.relation, a.note);
      return { text: `linked ${r.src.slice(0, 8)} -${r.relation}-> ${r.dst.slice(0, 8)}${r.changed ? '' : ' (already linked)'}`, data: r };
    },
  }),
  tool({
    name: 'conflicts',
    title: 'Conflicts',
    description:
      'The conflict queue in your scope, most harmful first: memory pairs flagged as contradicting, and pairs that state different values of one thing. Each item names both memories (ids, owners, times), what differs, and any note. Settle one with resolve_conflict.',
    readOnly: true,
    input: z
      .object({
        limit: z.number().int('limit must be a whole number').min(1, 'limit must be at least 1').max(50, 'limit must be at most 50').default(10),
        kind: z.enum(['contradicts', 'value']).optional().describe('only one kind of conflict'),
        owner: owner.optional(),
      })
      .strict(),
    async run(agent, a) {
      const page = await agentConflicts(agent, { limit: a.limit, ...(a.kind ? { kinds: [a.kind] } : {}), ...(a.owner !== undefined ? { owner: a.owner } : {}) });
      const lines = page.items.map((i) => {
        const [x, y] = i.sides!;
        const what = i.spans?.length ? ` differs in ${i.spans.map((s) => `${s.a} / ${s.b}`).join('; ')}` : i.note ? ` flagged: ${i.note.note}` : '';
        return `- ${i.kind}${what}\n  A ${asData(x!.head, { id: shortId(x!.id), oneLine: true })}\n  B ${asData(y!.head, { id: shortId(y!.id), oneLine: true })}`;
      });
      return { text: lines.length ? `${page.total} in your queue\n${lines.join('\n')}` : 'no conflicts in your scope', data: { total: page.total, items: page.items } };
    },
  }),
  tool({
    name: 'resolve_conflict',
    title: 'Resolve a conflict',
    description:
      'Settle a conflict between two memories you can see (one journalled change, undoable by a curator): supersede (current holds; superseded stays but leaves recall), forget (wrong is deleted, with a tombstone), both_hold (different contexts; the pair leaves the queue), merge (into survivor). Memories you change must be yours or shared.',
    input: z
      .object({
        action: z.enum(['supersede', 'forget', 'both_hold', 'merge']),
        current: memoryId('current').optional().describe('supersede: the memory that holds'),
        superseded: memoryId('superseded').optional().describe('supersede: the memory that no longer holds'),
        wrong: memoryId('wrong').optional().describe('forget: the memory that is wrong'),
        a_id: memoryId('a_id').optional().describe('both_hold, merge: one memory'),
        b_id: memoryId('b_id').optional().describe('both_hold, merge: the other'),
        survivor: memoryId('survivor').optional().describe('merge: which one stays'),
      })
      .strict(),
    async run(agent, a) {
      const need = (v: string | undefined, field: string) => {
        if (!v) throw badInput(`${a.action} needs ${field}`, { field });
        return v;
      };
      const r: PairResolution =
        a.action === 'supersede'
          ? { do: 'supersede', current: need(a.current, 'current'), superseded: need(a.superseded, 'superseded') }
          : a.action === 'forget'
            ? { do: 'forget', wrong: need(a.wrong, 'wrong') }
            : a.action === 'both_hold'
              ? { do: 'both_hold', ids: [need(a.a_id, 'a_id'), need(a.b_id, 'b_id')] }
              : { do: 'merge', ids: [need(a.a_id, 'a_id'), need(a.b_id, 'b_id')], survivor: need(a.survivor, 'survivor') };
      const res = await agentResolve(agent, r);
      return { text: `${a.action}: ${res.ids.map(shortId).join(', ')} (change #${res.change_id ?? '-'})`, data: { ...res } };
    },
  }),
  tool({
    name: 'deref',
    title: 'Dereference',
    description: 'Read the CURRENT value behind a reference "kind:key" (var, context, file, todo, memory): LIVE, or the write-time snapshot marked DANGLING.',
    readOnly: true,
    input: z.object({ ref: refSpec }).strict(),
    run(agent, a) {
      const line = agent.deref(a.ref);
      // The line carries stored or outside text (a snapshot, a file, another memory): marked as data.
      return { text: asData(line), data: { line, live: line.includes('(LIVE)') } };
    },
  }),
  tool({
    name: 'stats',
    title: 'Memory stats',
    description: 'How you have used your memory in this session, plus the store size and your todo counts.',
    readOnly: true,
    input: z.object({}).strict(),
    run(agent) {
      const s = agent.stats();
      return { text: `memory stats: ${statsSummary(s)}`, data: { ...s } };
    },
  }),
  tool({
    name: 'reflect',
    title: 'Reflect',
    description: 'Run a deterministic consolidation pass over your role\'s memories (merge duplicates, form edges, rescore importance, prune decayed): it is planned, then exactly that plan is applied. Returns the report.',
    input: z.object({}).strict(),
    async run(agent) {
      const r = await agent.reflect();
      const rep = r.report;
      return { text: `reflected: merged ${rep.merged}, edges added ${rep.edges_added}, rescored ${rep.rescored}, pruned ${rep.pruned}`, data: { ...r } };
    },
  }),
  tool({
    name: 'todo_list',
    title: 'List todos',
    description: 'Your durable todos, highest importance first, then oldest. status: open (default) | done | dropped | all.',
    readOnly: true,
    input: z.object({ status: z.enum(['open', 'done', 'dropped', 'all']).default('open'), owner: owner.optional() }).strict(),
    run(agent, a) {
      const todos = agent.todoList({ status: a.status, ...(a.owner !== undefined ? { owner: a.owner } : {}) });
      const text = todos.length ? todos.map((t) => headLine({ type: 'todo', status: t.status, id: t.id }, t.head, ` (importance ${t.importance})`)).join('\n') : `no ${a.status === 'all' ? '' : `${a.status} `}todos`;
      return { text, data: { todos } };
    },
  }),
  tool({
    name: 'todo_open',
    title: 'Open a todo',
    description: 'Record a durable commitment to act, tracked until you close it with todo_close. A near-duplicate of an open todo reinforces it instead.',
    input: z.object({ content: z.string().min(1, 'content cannot be empty').max(100_000), title: z.string().max(500).optional(), importance: importance.default('MEDIUM'), tags: tags.optional(), references: references.optional() }).strict(),
    async run(agent, a) {
      const r = await agent.todoOpen({ content: a.content, importance: a.importance, ...(a.title !== undefined ? { title: a.title } : {}), ...(a.tags ? { tags: a.tags } : {}), ...(a.references ? { references: a.references } : {}) });
      const label = memoryLabel(r.memory);
      return { text: r.reinforced ? `already open: ${label} (reinforced)` : `opened ${label}`, data: { id: r.id, label, reinforced: r.reinforced } };
    },
  }),
  tool({
    name: 'todo_close',
    title: 'Close a todo',
    description: 'Close one of your todos: status done (default) or dropped (abandoned).',
    input: z.object({ todo_id: memoryId('todo_id'), status: z.enum(['done', 'dropped']).default('done') }).strict(),
    async run(agent, a) {
      const t = await agent.todoClose(a.todo_id, a.status);
      return { text: `closed ${memoryLabel({ type: 'todo', status: t.status, id: t.id })} ${asData(t.head, { id: shortId(t.id), oneLine: true })}`, data: { todo: t } };
    },
  }),
  tool({
    name: 'intent_add',
    title: 'Add an intent',
    description:
      'A reminder that fires later: trigger {kind: "time", fire_at: epoch seconds or ISO-8601} fires once the time has passed; {kind: "cue", cue: "text"} when the text appears in your message; {kind: "event", cue: "EventName"} when that event is seen. opens_todo: open a todo when it fires.',
    input: z
      .object({
        content: z.string().min(1, 'content cannot be empty').max(100_000),
        trigger: triggerSpecInput,
        title: z.string().max(500).optional(),
        importance: importance.default('MEDIUM'),
        tags: tags.optional(),
        references: references.optional(),
        opens_todo: z.boolean().default(false),
      })
      .strict(),
    async run(agent, a) {
      // Everything that can fail runs before the write: an error answer must mean nothing was stored
      // (a retrying agent would otherwise pile up duplicates).
      const when = describeTrigger(normalizeTrigger(a.trigger));
      const v = await agent.intentAdd({
        content: a.content,
        trigger: a.trigger,
        importance: a.importance,
        opens_todo: a.opens_todo,
        ...(a.title !== undefined ? { title: a.title } : {}),
        ...(a.tags ? { tags: a.tags } : {}),
        ...(a.references ? { references: a.references } : {}),
      });
      return { text: `intent [intent#${v.id.slice(0, 8)}] waits for ${when}${v.opens_todo ? ' (opens a todo)' : ''}`, data: { intent: v } };
    },
  }),
  tool({
    name: 'intents_due',
    title: 'Fire due intents',
    description: 'Check your intents against now, your current message (cue triggers) and the events you saw (event triggers). Returns the ones that fire; each fires once.',
    input: z.object({ message: z.string().max(100_000).optional(), events: z.array(z.string().min(1, 'event names cannot be empty').max(200)).max(1000).optional() }).strict(),
    async run(agent, a) {
      const fired = await agent.intentsDue({ message: a.message ?? null, events: a.events ?? [] });
      const text = fired.length
        ? fired
            // The reason quotes the stored cue, so it stays inside the data block with the head.
            .flatMap((f) => [`- [intent#${shortId(f.intent.id)}] ${asData(`${memoryHead(f.intent)} (${f.reason})`, { id: shortId(f.intent.id), oneLine: true })}`, ...(f.todo ? [`    → opened ${memoryLabel(f.todo)}`] : [])])
            .join('\n')
        : 'no intents due';
      return {
        text,
        data: { fired: fired.map((f) => ({ id: f.intent.id, kind: f.kind, reason: f.reason, content: f.intent.content, todo_id: f.todo?.id ?? null })) },
      };
    },
  }),
];
