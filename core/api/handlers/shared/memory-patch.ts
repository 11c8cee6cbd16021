/**
 * A memory's editable fields as a caller sends them (ladders as numbers or labels, references
 * without a capture time) turned into the engine's patch: what memory.add, memory.update and
 * memory.merge share.
 */
import type { z } from 'zod';
import type { MemoryPatch } from '../../../engine/memory-ops.js';
import { toNumeric } from '../../../model/ladders.js';
import type { memoryPatchInput } from '../../contract/shared/memory-inputs.js';

type PatchInput = Omit<z.output<typeof memoryPatchInput>, 'content'> & { content?: string | undefined };

function ladder(name: 'importance' | 'salience' | 'confidence', v: number | string): number {
  return typeof v === 'string' ? toNumeric(name, v) : v;
}

/** The fields given (undefined ones left out), ladder labels as numbers, references stamped `now` unless captured earlier. */
export function patchFromInput(input: PatchInput, now: number): MemoryPatch {
  const { importance, salience, confidence, references, ...rest } = input;
  const patch = Object.fromEntries(Object.entries(rest).filter(([, v]) => v !== undefined)) as MemoryPatch;
  if (importance !== undefined) patch.importance = ladder('importance', importance);
  if (salience !== undefined) patch.salience = ladder('salience', salience);
  if (confidence !== undefined) patch.confidence = ladder('confidence', confidence);
  if (references) patch.references = references.map((r) => ({ kind: r.kind, key: r.key, preview: r.preview ?? null, captured_at: r.captured_at ?? now }));
  return patch;
}
