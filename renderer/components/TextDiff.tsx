/** A word-level diff of two texts (the `diff` library), removed words struck through, added words marked. */
import { diffWords } from 'diff';
import { useMemo } from 'react';
import './diff.css';

export function TextDiff({ before, after, testId }: { before: string; after: string; testId?: string }) {
  const parts = useMemo(() => diffWords(before, after), [before, after]);
  return (
    <span className="text-diff" data-testid={testId}>
      {parts.map((p, i) =>
        p.added ? (
          <ins key={i}>{p.value}</ins>
        ) : p.removed ? (
          <del key={i}>{p.value}</del>
        ) : (
          <span key={i}>{p.value}</span>
        ),
      )}
    </span>
  );
}
