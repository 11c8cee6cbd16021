/**
 * What the workbench and agents see of intents and todos. Plain types with no runtime imports, so
 * the service contract (and through it the renderer) can use them.
 */
import type { TodoStatus } from '../model/enums.js';

/** pending: will fire; fired: done; unscheduled: an intent with no usable trigger. */
export type IntentState = 'pending' | 'fired' | 'unscheduled';

export interface IntentView {
  id: string;
  head: string;
  content: string;
  owner: string;
  importance: number;
  created_at: number;
  state: IntentState;
  kind: string | null;
  cue: string | null;
  fire_at: number | null;
  opens_todo: boolean;
  fired_at: number | null;
  fired_reason: string | null;
  fired_by: string | null;
  fired_session: string | null;
  todo_id: string | null;
  /** The linked todo's status, when the intent opened one. */
  todo_status: string | null;
}

/** A pending time intent whose moment has passed without it firing (no agent ran the scheduler since). */
export function isOverdue(v: Pick<IntentView, 'state' | 'kind' | 'fire_at'>, now: number): boolean {
  return v.state === 'pending' && v.kind === 'time' && v.fire_at !== null && v.fire_at < now;
}

export interface TodoView {
  id: string;
  head: string;
  title: string | null;
  content: string;
  owner: string;
  status: TodoStatus;
  importance: number;
  created_at: number;
  last_accessed_at: number;
  tags: string[];
  /** Hours since it was opened (only for open todos). */
  open_age_hours: number | null;
  /** The intent that opened it, when one did. */
  from_intent: string | null;
}
