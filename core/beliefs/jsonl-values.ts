/**
 * The belief layer's JSONL inputs (observations to ingest, queries to answer) are read the same way:
 * one JSON value a line, blank lines skipped, and the first line that is not JSON fails the whole
 * text, naming its line, so that a half-read file is never taken in.
 */
import { badInput } from '../errors.js';

/** Each non-blank line's JSON value with its 1-based line number; `consequence` ends the error ("; nothing was ingested"). */
export function* jsonlValues(text: string, consequence = ''): Generator<{ json: unknown; line: number }> {
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i]!.trim();
    if (raw === '') continue;
    let json: unknown;
    try {
      json = JSON.parse(raw);
    } catch (err) {
      throw badInput(`line ${i + 1}: not valid JSON (${(err as Error).message})${consequence}`, { line: i + 1 });
    }
    yield { json, line: i + 1 };
  }
}
