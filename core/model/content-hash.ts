/** The key a tombstone is found by: pure, so the engine hashes content without asking the store. */
import { createHash } from 'node:crypto';

/** Content normalised the way people re-type it: Unicode NFC, case folded, whitespace collapsed. */
export function contentHash(content: string): string {
  const norm = content.normalize('NFC').toLowerCase().replace(/\s+/g, ' ').trim();
  return createHash('sha256').update(norm).digest('hex');
}
