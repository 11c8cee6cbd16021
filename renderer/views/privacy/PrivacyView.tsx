/**
 * Privacy: redaction at the door (the store's policy, every pattern with what it replaced so far,
 * the operator's own patterns, the optional kinds, the switch) and erasing by match or by owner.
 * Every number is the engine's (store.redaction, memory.erase's dry run and receipt).
 */
import { useState } from 'react';
import type { RedactionView } from '../../../core/api/contract/store.js';
import { useRedaction, useSetRedaction } from '../../api/privacy.js';
import { useEraseDialog } from '../../state/erase-dialog.js';
import { ErrorBox, QueryView } from '../../components/common.js';
import { useReadOnlyReason } from '../curation/read-only.js';
import './privacy.css';

function RedactionPanel({ view }: { view: RedactionView }) {
  const set = useSetRedaction();
  const readOnly = useReadOnlyReason();
  const [kind, setKind] = useState('');
  const [pattern, setPattern] = useState('');
  const custom = view.patterns.filter((p) => !p.built_in).map((p) => ({ kind: p.kind, pattern: p.source, ...(p.description !== 'your own pattern' ? { description: p.description } : {}) }));
  const optionalOn = view.patterns.filter((p) => p.built_in && p.optional && p.on).map((p) => p.kind);
  const toggleOptional = (k: string, on: boolean) => set.mutate({ optional: on ? [...optionalOn, k] : optionalOn.filter((x) => x !== k) });
  return (
    <section className="panel" data-testid="redaction-panel">
      <h2>Redaction at the door</h2>
      <p className="small">
        Secrets in what agents and imports write are replaced by <code>[redacted:&lt;kind&gt;]</code> before anything is stored, so they never reach the journal, the change feed or an
        index. It applies to new writes only: what the store already holds stays as it is (erase it below).
      </p>
      <label className="switch">
        <input type="checkbox" checked={view.enabled} disabled={set.isPending || !!readOnly} onChange={(e) => set.mutate({ enabled: e.target.checked })} data-testid="redaction-enabled" />{' '}
        Redaction is <strong>{view.enabled ? 'on' : 'off'}</strong> for this store
      </label>
      <p data-testid="redaction-total">
        <strong>{view.total.toLocaleString()}</strong> {view.total === 1 ? 'replacement' : 'replacements'} made by this store's writes so far.
      </p>
      <table className="redaction-patterns" data-testid="redaction-patterns">
        <thead>
          <tr>
            <th>Kind</th>
            <th>What it finds</th>
            <th>On</th>
            <th className="num">Replaced</th>
          </tr>
        </thead>
        <tbody>
          {view.patterns.map((p) => (
            <tr key={p.kind} className={p.on ? '' : 'muted'}>
              <td>
                <code>{p.kind}</code>
              </td>
              <td>
                {p.description}
                <details className="small">
                  <summary>pattern</summary>
                  <code className="pattern">{p.source}</code>
                </details>
              </td>
              <td>
                {p.built_in && p.optional ? (
                  <input type="checkbox" checked={optionalOn.includes(p.kind)} disabled={set.isPending || !view.enabled || !!readOnly} onChange={(e) => toggleOptional(p.kind, e.target.checked)} aria-label={`redact ${p.kind}`} />
                ) : p.built_in ? (
                  p.on ? 'yes' : 'no'
                ) : (
                  <button className="link" disabled={set.isPending || !!readOnly} onClick={() => set.mutate({ custom: custom.filter((c) => c.kind !== p.kind) })}>
                    remove
                  </button>
                )}
              </td>
              <td className="num">{(view.counts[p.kind] ?? 0).toLocaleString()}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <form
        className="add-pattern"
        onSubmit={(e) => {
          e.preventDefault();
          set.mutate({ custom: [...custom, { kind: kind.trim(), pattern }] }, { onSuccess: () => (setKind(''), setPattern('')) });
        }}
      >
        <strong>Add a pattern of your own</strong> <span className="small muted">(runs under RE2: linear time whatever the pattern; no look-around or back-references; at most 200 characters)</span>
        <br />
        <input placeholder="kind, e.g. ticket" value={kind} onChange={(e) => setKind(e.target.value)} aria-label="kind" data-testid="pattern-kind" />{' '}
        <input placeholder="pattern, e.g. TICKET-[0-9]{4}" value={pattern} onChange={(e) => setPattern(e.target.value)} aria-label="pattern" className="wide" data-testid="pattern-source" />{' '}
        <button type="submit" disabled={!kind.trim() || !pattern || set.isPending || !!readOnly} data-testid="pattern-add">
          Add
        </button>
      </form>
      <ErrorBox error={set.error} />
    </section>
  );
}

function ErasePanel() {
  const [text, setText] = useState('');
  const [owner, setOwner] = useState('');
  const open = useEraseDialog((s) => s.open);
  const readOnly = useReadOnlyReason();
  return (
    <section className="panel" data-testid="erase-panel">
      <h2>Erase for good</h2>
      <p className="small">
        Forgetting keeps the memory in History so it can be undone. Erasing removes it from every place the store keeps it (the journal, the change feed, the access log and
        its queries, tombstones, beliefs, the index files beside the store) and rewrites the files. It cannot be undone. You will see what would go before anything does.
      </p>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          open({ match: text });
        }}
      >
        <label>
          Every memory holding the text <input value={text} onChange={(e) => setText(e.target.value)} placeholder="at least 3 characters" data-testid="erase-match" />
        </label>{' '}
        <button type="submit" className="danger" disabled={text.trim().length < 3 || !!readOnly} data-testid="erase-match-review">
          Review…
        </button>
        <span className="small muted"> (the text is also scrubbed from access queries, belief evidence, journal and feed images)</span>
      </form>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          open({ owner: owner.trim() });
        }}
      >
        <label>
          Every memory of the owner <input value={owner} onChange={(e) => setOwner(e.target.value)} placeholder="role or role@instance" data-testid="erase-owner" />
        </label>{' '}
        <button type="submit" className="danger" disabled={!owner.trim() || !!readOnly} data-testid="erase-owner-review">
          Review…
        </button>
      </form>
    </section>
  );
}

export function PrivacyView() {
  const redaction = useRedaction();
  return (
    <div className="privacy-view" data-testid="privacy-view">
      <QueryView query={redaction} label="Reading the redaction policy…">
        {(view) => <RedactionPanel view={view} />}
      </QueryView>
      <ErasePanel />
    </div>
  );
}
