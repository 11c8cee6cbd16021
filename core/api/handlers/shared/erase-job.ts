/**
 * An erase as the store's running long write (write-job.ts), as a reflection apply is: its
 * progress by phase for a progress bar (journal.progress), and a cancel that is honoured until
 * the erase's first write (journal.cancel), after which it runs to its end. A dry run is a plan
 * only and writes nothing.
 */
import { badInput, MnemoError } from '../../../errors.js';
import { beliefsOf } from '../../../beliefs/index.js';
import { eraseNow, planEraseOf, type EraseActor, type EraseDryRun, type EraseReceipt } from '../../../erase/erase.js';
import type { Engine } from '../../../engine/engine.js';
import { ownerProblem } from '../../../model/owner.js';
import type { EraseSelector } from '../../../store/port/port.js';
import type { RunPacing } from '../../../model/run-pacing.js';
import { writeJobOf } from './write-job.js';

/** The selector of an erase's input (exactly one of ids, match, owner: the contract checked). */
export function eraseSelectorOf(input: { ids?: string[] | undefined; match?: string | undefined; owner?: string | undefined }): EraseSelector {
  if (input.ids !== undefined) return { kind: 'ids', ids: input.ids };
  if (input.match !== undefined) return { kind: 'match', text: input.match };
  const owner = input.owner!;
  const problem = owner === '*' ? 'names every owner' : ownerProblem(owner);
  if (problem) throw badInput(`owner ${JSON.stringify(owner)} ${problem}; give "role" or "role@instance"`, { field: 'owner' });
  return { kind: 'owner', owner };
}

const cancelledBeforeStart = () =>
  new MnemoError('conflict', 'the erase was cancelled before it began: nothing was erased, the store is as it was', { cancelled: true });

/** Plans (dry run) or runs an erase as the store's long write; the receipt or the plan. */
export async function runEraseJob(engine: Engine, selector: EraseSelector, actor: EraseActor, dryRun: boolean, pacing?: RunPacing): Promise<EraseDryRun | EraseReceipt> {
  if (dryRun) return (await planEraseOf(engine, selector, actor)).dry;
  return writeJobOf(engine).run('memory.erase', true, async (job) => {
    job.progress(0, 1, 'planning');
    const { plan } = await planEraseOf(engine, selector, actor);
    job.pastPointOfNoReturn(cancelledBeforeStart);
    return eraseNow(engine, plan, actor, {
      rebuildBeliefs: (entities) => beliefsOf(engine).rebuild(entities),
      onProgress: (phase, done, total) => job.progress(done, total, phase),
      ...(pacing ? { pacing } : {}),
    });
  });
}
