/**
 * What an erase leaves where content was, so that every other row keeps its shape:
 *
 * - a journal image becomes `{"erased": {at, by, change_id}, "row": {id, owner}}` (a memory) or
 *   `{"erased": …, "memory_id", "owner"}` (a tombstone). A null side stays null, so the change still
 *   reads as a create, a delete or a modification, and the owner lookups of undo's permission check
 *   still find the owner. The journal refuses to write such an image back (journal.ts);
 * - a change-feed before-image becomes the memory as "[erased at T by X]": same id, type, owner,
 *   times and flags, no text, no embedding, an empty ring. Time travel to before the erase then
 *   shows the memory as erased, never its content, and every row around it rolls back as before.
 */
import { createMemory, type Memory } from '../../model/memory.js';
import { isMemoryType, isTodoStatus } from '../../model/enums.js';
import { encodeData } from '../port/codec.js';
import type { ErasedMark } from '../port/erase.js';

const MARK_PREFIX = '{"erased":';

/** Whether a journal image (as stored, JSON text) is an erased marker. */
export function isErasedImageText(text: string | null): boolean {
  return text !== null && text.startsWith(MARK_PREFIX);
}

/** Whether a parsed journal image is an erased marker. */
export function isErasedImage(image: unknown): image is { erased: ErasedMark } {
  return image !== null && typeof image === 'object' && 'erased' in image && typeof (image as { erased: unknown }).erased === 'object';
}

/** A memory row's journal image, erased. */
export function erasedMemoryImage(mark: ErasedMark, id: string, owner: string): string {
  return JSON.stringify({ erased: mark, row: { id, owner } });
}

/** A tombstone's journal image, erased (its hash, a digest of the content, goes with the content). */
export function erasedTombstoneImage(mark: ErasedMark, memoryId: string, owner: string): string {
  return JSON.stringify({ erased: mark, memory_id: memoryId, owner });
}

/** The words time travel shows instead of an erased memory's content. */
export function erasedText(mark: ErasedMark): string {
  return `[erased at ${new Date(mark.at * 1000).toISOString()} by ${mark.by}]`;
}

/** What an erased memory keeps in time travel: everything but its text (type, owner, times, flags). */
export interface ErasedShape {
  id: string;
  type: string | null;
  owner: string | null;
  created_at: number | null;
  importance: number | null;
  salience: number | null;
  archived: number | null;
  status: string | null;
}

/** The before-image an erased memory shows in time travel: `content` and nooa's `data` for it. */
export function erasedFeedImage(mark: ErasedMark, shape: ErasedShape): { content: string; data: string } {
  const content = erasedText(mark);
  const type = shape.type !== null && isMemoryType(shape.type) ? shape.type : 'info';
  const created = shape.created_at ?? mark.at;
  const memory: Memory = createMemory(
    {
      id: shape.id,
      type,
      title: '[erased]',
      content,
      owner: shape.owner ?? '',
      importance: shape.importance ?? 5.0,
      salience: shape.salience ?? 0.0,
      created_at: created,
      archived: (shape.archived ?? 0) !== 0,
      status: type === 'todo' && isTodoStatus(shape.status) ? shape.status : null,
    },
    created,
  );
  memory.access_log = [];
  memory.extra = { erased: { ...mark } };
  return { content, data: encodeData(memory) };
}
