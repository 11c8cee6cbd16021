/**
 * Save a profile from the lab: B with one knob changed, under a new name. The answer is the saved
 * profile's diff against the profile it started from, shown here (History can undo the save).
 * Fitting every knob from labelled queries is the Fit panel beside it (FitPanel.tsx).
 */
import { useState } from 'react';
import type { InputOf } from '../../../core/api/contract/index.js';
import { useLabKnobs, useProfile, useSaveProfile } from '../../api/lab.js';
import { ErrorBox } from '../../components/common.js';
import { SavedDiff, showValue } from './SavedDiff.js';

/** `knobs.weights.recency` = v → `{ knobs: { weights: { recency: v } } }`. */
export function overrideAt(path: string, value: number): Record<string, unknown> {
  const root: Record<string, unknown> = {};
  let at = root;
  const parts = path.split('.');
  parts.forEach((part, i) => {
    if (i === parts.length - 1) at[part] = value;
    else at = (at[part] = {}) as Record<string, unknown>;
  });
  return root;
}

function valueAt(config: unknown, path: string): unknown {
  return path.split('.').reduce<unknown>((v, part) => (v && typeof v === 'object' ? (v as Record<string, unknown>)[part] : undefined), config);
}

export function SaveProfilePanel({ base, knob, onSaved }: { base: string; knob: string; onSaved: (name: string) => void }) {
  const profile = useProfile(base);
  const knobs = useLabKnobs().data?.knobs ?? [];
  const [path, setPath] = useState(knob);
  const [value, setValue] = useState('');
  const [name, setName] = useState('');
  const save = useSaveProfile();
  const current = valueAt(profile.data?.config, path.replace(/^knobs\./, 'knobs.'));
  const submit = (e: { preventDefault(): void }) => {
    e.preventDefault();
    const input = { name: name.trim(), base, ...overrideAt(path, Number(value)) } as InputOf<'profiles.save'>;
    save.mutate(input, { onSuccess: (r) => onSaved(r.name) });
  };
  return (
    <section className="panel" data-testid="lab-save">
      <h3>Save a profile from B ({base})</h3>
      <form className="row" onSubmit={submit}>
        <select value={path} onChange={(e) => setPath(e.target.value)} data-testid="lab-save-knob" aria-label="knob to change">
          {knobs.map((k) => (
            <option key={k.path}>{k.path}</option>
          ))}
        </select>
        <span className="muted small">now {showValue(current ?? '—')}</span>
        <input type="number" step="any" required placeholder="new value" value={value} onChange={(e) => setValue(e.target.value)} style={{ width: 90 }} data-testid="lab-save-value" />
        <input required placeholder="name (a-z 0-9 . _ -)" pattern="[a-z0-9][a-z0-9._\-]{0,63}" value={name} onChange={(e) => setName(e.target.value)} data-testid="lab-save-name" />
        <button type="submit" className="primary" disabled={save.isPending} data-testid="lab-save-submit">
          Save profile
        </button>
      </form>
      <ErrorBox error={save.error} />
      {save.data ? <SavedDiff saved={save.data} testId="lab-saved" /> : null}
    </section>
  );
}
