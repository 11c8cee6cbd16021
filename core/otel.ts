/**
 * The OpenTelemetry bridge, as nooa's tracing_bridge: memory events become span events on the
 * current recording span, and accesses are stamped with the active span id. Everything goes
 * through `@opentelemetry/api`, which is a no-op until the host registers an SDK, so a process
 * without tracing pays a property read.
 */
import { resolve } from 'node:path';
import { isSpanContextValid, trace, type AttributeValue, type Attributes } from '@opentelemetry/api';

/** nooa's runtime event → span event names. */
export const SPAN_EVENTS = {
  written: 'memory.written',
  recalled: 'memory.recalled',
  injected: 'memory.injected',
  reflection_started: 'memory.reflection_started',
  reflected: 'memory.reflected',
} as const;
export type MemoryEventKind = keyof typeof SPAN_EVENTS;

/** The active span id as 16 hex digits (stamped on AccessRecord.trace_ref), or null. */
export function currentTraceRef(): string | null {
  const span = trace.getActiveSpan();
  if (!span) return null;
  const ctx = span.spanContext();
  return isSpanContextValid(ctx) ? ctx.spanId : null;
}

/**
 * Adds `memory.<kind>` to the current recording span with `memory.db_path`, `memory.owner` and
 * `memory.<field>` for every field that is a string, boolean, number or list of strings.
 */
export function emitMemoryEvent(kind: MemoryEventKind, where: { dbPath: string; owner: string }, fields: Record<string, unknown>): boolean {
  const span = trace.getActiveSpan();
  if (!span || !span.isRecording()) return false;
  const attrs: Attributes = {
    'memory.db_path': where.dbPath === ':memory:' ? ':memory:' : resolve(where.dbPath),
    'memory.owner': where.owner,
  };
  for (const [key, value] of Object.entries(fields)) {
    const v = attributeValue(value);
    if (v !== undefined) attrs[`memory.${key}`] = v;
  }
  span.addEvent(SPAN_EVENTS[kind], attrs);
  return true;
}

function attributeValue(v: unknown): AttributeValue | undefined {
  if (typeof v === 'string' || typeof v === 'boolean') return v;
  if (typeof v === 'number') return Number.isFinite(v) ? v : undefined;
  if (Array.isArray(v) && v.every((x) => typeof x === 'string')) return v as string[];
  return undefined;
}
