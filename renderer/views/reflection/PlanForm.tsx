/** What to plan: owner scope, thresholds, an optional stop after one op, and the opt-in generative ops. */
import { useState } from 'react';
import { useLlmEndpoints, type PlanInput } from '../../api/reflect.js';

const GEN_OPS = ['reconcile', 'abstract', 'episode'] as const;

export function PlanForm({ running, stopping, onPlan, onCancel }: { running: boolean; stopping: boolean; onPlan: (input: PlanInput) => void; onCancel: () => void }) {
  const [scope, setScope] = useState('');
  const [merge, setMerge] = useState('');
  const [edge, setEdge] = useState('');
  const [until, setUntil] = useState('');
  const [gen, setGen] = useState<string[]>([]);
  const [endpoint, setEndpoint] = useState('');
  const [genOpen, setGenOpen] = useState(false);
  // Endpoints are configured where the engine runs; the page can only pick one by name.
  const endpoints = useLlmEndpoints(genOpen).data?.endpoints ?? [];
  const [transcript, setTranscript] = useState('');
  const num = (s: string) => (s.trim() === '' ? undefined : Number(s));
  const submit = () => {
    const policy = { ...(num(merge) !== undefined ? { merge_threshold: num(merge)! } : {}), ...(num(edge) !== undefined ? { edge_threshold: num(edge)! } : {}) };
    onPlan({
      ...(scope.trim() ? { scope: scope.trim() } : {}),
      ...(Object.keys(policy).length ? { policy } : {}),
      ...(until ? { until: until as PlanInput['until'] } : {}),
      ...(gen.length
        ? {
            generative: {
              ops: gen as (typeof GEN_OPS)[number][],
              ...(endpoint ? { endpoint } : {}),
              ...(transcript.trim() ? { transcript } : {}),
            },
          }
        : {}),
    });
  };
  return (
    <form
      className="plan-form"
      onSubmit={(e) => {
        e.preventDefault();
        submit();
      }}
    >
      <label>
        scope <input value={scope} onChange={(e) => setScope(e.target.value)} placeholder="everyone, role or role@instance" data-testid="reflection-scope" />
      </label>
      <label>
        merge cos ≥ <input className="num" value={merge} onChange={(e) => setMerge(e.target.value)} placeholder="0.95" inputMode="decimal" />
      </label>
      <label>
        link cos ≥ <input className="num" value={edge} onChange={(e) => setEdge(e.target.value)} placeholder="0.80" inputMode="decimal" />
      </label>
      <label>
        stop after{' '}
        <select value={until} onChange={(e) => setUntil(e.target.value)} data-testid="reflection-until">
          <option value="">prune (the whole pass)</option>
          <option value="merge">merge</option>
          <option value="link">link</option>
          <option value="rescore">rescore</option>
        </select>
      </label>
      <details className="gen-options" onToggle={(e) => setGenOpen((e.target as HTMLDetailsElement).open)}>
        <summary data-testid="reflection-gen-options">Generative ops {gen.length ? `(${gen.join(', ')})` : '(off)'}</summary>
        <div className="row">
          {GEN_OPS.map((g) => (
            <label key={g} className="facet">
              <input type="checkbox" checked={gen.includes(g)} onChange={() => setGen((xs) => (xs.includes(g) ? xs.filter((x) => x !== g) : [...xs, g]))} data-testid={`reflection-gen-${g}`} /> {g}
            </label>
          ))}
        </div>
        <label className="block">
          endpoint (configured where the engine runs: MNEMO_LLM_URL / --llm-config)
          <select value={endpoint} onChange={(e) => setEndpoint(e.target.value)} data-testid="reflection-llm-endpoint">
            <option value="">{endpoints.length ? 'the default endpoint' : 'none configured'}</option>
            {endpoints.map((x) => (
              <option key={x.name} value={x.name}>
                {x.name} ({x.model}){x.default ? ' · default' : ''}
              </option>
            ))}
          </select>
        </label>
        <label className="block">
          transcript for the episode writer
          <textarea value={transcript} onChange={(e) => setTranscript(e.target.value)} rows={3} />
        </label>
      </details>
      <button type="submit" className="primary" disabled={running} data-testid="reflection-plan">
        {running ? 'Planning…' : 'Plan (dry run)'}
      </button>
      {running ? (
        <button type="button" onClick={onCancel} disabled={stopping} data-testid="reflection-cancel" title="End the plan at the next item, with what it found so far (marked stopped)">
          {stopping ? 'Stopping…' : 'Stop'}
        </button>
      ) : null}
    </form>
  );
}
