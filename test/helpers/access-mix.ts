/**
 * A memory read every way the engine logs, for the tests of the detail view's access counters:
 * two recalls in the same second, an injection, a reinforcement with and one without a strength
 * bump, a deref, and the dry runs (explain, why-not) that log nothing.
 */
import type { ApiSession } from '../../core/api/context.js';
import { call, type Invoker } from '../../core/api/service.js';

export interface AccessMix {
  id: string;
  /** Accesses logged, the creation not counted. */
  logged: number;
  /** Of those, the touching ones (what access_count counts). */
  touching: number;
  injected: number;
}

export async function memoryWithMixedAccesses(session: ApiSession | Invoker): Promise<AccessMix> {
  const query = 'zebra-striped checklist for quokka migrations';
  const m = await call(session, 'memory.add', { content: `${query}\nRun the quokka dry run first.`, title: 'Quokka migration checklist', owner: 'Planner' });
  for (let i = 0; i < 2; i++) {
    const r = await call(session, 'recall.run', { query, k: 1 });
    if (r.rows[0]?.id !== m.id) throw new Error('the mixed-access memory was not the top recall result');
  }
  await call(session, 'recall.inject', { query, k: 1 });
  await call(session, 'access.reinforce', { id: m.id, bump: true });
  await call(session, 'access.reinforce', { id: m.id, bump: false });
  await call(session, 'access.deref', { id: m.id });
  await call(session, 'recall.explain', { query, k: 1 });
  await call(session, 'recall.whyNot', { query, k: 1, target: m.id });
  return { id: m.id, logged: 6, touching: 5, injected: 1 };
}
