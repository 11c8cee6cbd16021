/**
 * The agent's `reflect`: a deterministic reflection pass at the agent's role scope, planned and then
 * applied exactly as planned (core/reflect), returning the report the reference returns.
 */
import type { ApiSession } from '../api/context.js';
import { MnemoError } from '../errors.js';

export interface ReflectionReport {
  merged: number;
  edges_added: number;
  rescored: number;
  pruned: number;
  created: number;
  [key: string]: unknown;
}

export interface ReflectionOutcome {
  report: ReflectionReport;
  change_id: number | null;
}

export async function runReflection(_session: ApiSession, _role: string): Promise<ReflectionOutcome> {
  throw new MnemoError('internal', 'reflection is not available in this build yet');
}
