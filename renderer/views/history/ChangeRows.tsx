/** The rows one change touched, each with the fields that differ before → after. */
import { ErrorBox, Spinner } from '../../components/common.js';
import { TextDiff } from '../../components/TextDiff.js';
import { useChangeRows } from '../../api/curation.js';
import { memoryHref } from '../../state/router.js';
import { useHeads } from '../../api/curation.js';
import { changedFields, idOf, listDiff, nsOf, showValue } from './image-diff.js';

const NS_LABEL: Record<string, string> = { m: 'memory', t: 'tombstone' };

function Value({ v }: { v: unknown }) {
  const s = showValue(v);
  return <span className={v === undefined ? 'muted' : ''}>{s.length > 400 ? `${s.slice(0, 400)}…` : s}</span>;
}

function ListChange({ before, after }: { before: unknown; after: unknown }) {
  const d = listDiff(before, after)!;
  return (
    <td colSpan={2} className="list-diff">
      {d.removed.map((x, i) => (
        <div key={`r${i}`} className="removed">
          − {showValue(x)}
        </div>
      ))}
      {d.added.map((x, i) => (
        <div key={`a${i}`} className="added">
          + {showValue(x)}
        </div>
      ))}
      {d.kept ? <div className="muted small">{d.kept} unchanged</div> : null}
    </td>
  );
}

export function ChangeRows({ changeId }: { changeId: number }) {
  const q = useChangeRows(changeId);
  const heads = useHeads((q.data?.rows ?? []).slice(0, 300).filter((r) => nsOf(r.key) === 'm').map((r) => idOf(r.key)));
  if (q.isLoading) return <Spinner label="Loading the rows of this change…" />;
  if (q.error) return <ErrorBox error={q.error} />;
  const rows = q.data?.rows ?? [];
  const shown = rows.slice(0, 300);
  return (
    <div className="change-rows" data-testid="change-rows" data-rows={rows.length}>
      {shown.map((r) => {
        const ns = nsOf(r.key);
        const id = idOf(r.key);
        const fields = changedFields(r.key, r.before, r.after);
        const what = r.before === null ? 'created' : r.after === null ? 'deleted' : 'modified';
        return (
          <div key={r.key} className="change-row" data-testid="change-row" data-key={r.key} data-what={what}>
            <div className="change-row-head">
              <span className={`badge ${what === 'deleted' ? 'warn' : ''}`}>{what}</span> <span className="muted">{NS_LABEL[ns] ?? ns}</span>{' '}
              {ns === 'm' ? (
                <a href={memoryHref(id)}>
                  {heads.data?.get(id)?.head ?? <span className="mono">{id}</span>}
                </a>
              ) : (
                <span className="mono">{id}</span>
              )}
            </div>
            <table className="field-diff">
              <thead>
                <tr>
                  <th>field</th>
                  <th>before</th>
                  <th>after</th>
                </tr>
              </thead>
              <tbody>
                {fields.slice(0, 40).map((f) => (
                  <tr key={f.field} data-field={f.field}>
                    <th>{f.field}</th>
                    {listDiff(f.before, f.after) ? (
                      <ListChange before={f.before} after={f.after} />
                    ) : typeof f.before === 'string' && typeof f.after === 'string' && (f.field === 'content' || f.field === 'title') ? (
                      <td colSpan={2}>
                        <TextDiff before={f.before} after={f.after} />
                      </td>
                    ) : (
                      <>
                        <td className="before">
                          <Value v={f.before} />
                        </td>
                        <td className="after">
                          <Value v={f.after} />
                        </td>
                      </>
                    )}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        );
      })}
      {rows.length > shown.length ? <p className="muted">…and {rows.length - shown.length} more rows (the first {shown.length} are shown).</p> : null}
    </div>
  );
}
