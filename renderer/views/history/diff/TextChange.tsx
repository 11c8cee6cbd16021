/**
 * A changed memory's text, before → after, as a word diff: the memory read at both instants when
 * asked for (one row at a time, so a long diff costs nothing until a row is opened).
 */
import { usePastMemory } from '../../../api/time-travel.js';
import { ErrorBox, Loading } from '../../../components/common.js';
import { TextDiff } from '../../../components/TextDiff.js';

export function TextChange({ id, from, to, fields }: { id: string; from: number; to: number; fields: string[] }) {
  const before = usePastMemory(id, from, true);
  const after = usePastMemory(id, to, true);
  if (before.error || after.error) return <ErrorBox error={before.error ?? after.error} />;
  if (before.data === undefined || after.data === undefined) return <Loading label="Reading both versions…" />;
  const texts: [string, string, string][] = [];
  if (fields.includes('title')) texts.push(['title', before.data?.title ?? '', after.data?.title ?? '']);
  if (fields.includes('content')) texts.push(['content', before.data?.content ?? '', after.data?.content ?? '']);
  return (
    <dl className="text-change" data-testid="diff-text-change">
      {texts.map(([field, a, b]) => (
        <div key={field}>
          <dt>{field}</dt>
          <dd>
            <TextDiff before={a} after={b} testId={`diff-text-${field}`} />
          </dd>
        </div>
      ))}
    </dl>
  );
}
