/**
 * Inline editing of every field a curator may change. Each save is one `memory.update` (one
 * journal entry, so History can undo it); the engine's validation message appears at the field.
 */
import { useState } from 'react';
import type { Memory } from '../../../core/model/memory.js';
import { useUpdateMemory } from '../../api/curation.js';
import { fmtTime } from '../../components/common.js';
import { fieldErrors } from './field-errors.js';
import { useReadOnlyReason } from './read-only.js';

type Kind = 'text' | 'textarea' | 'number' | 'select' | 'list' | 'json' | 'time';

interface FieldSpec {
  field: keyof Memory & string;
  label: string;
  kind: Kind;
  options?: readonly string[];
  nullable?: boolean;
  hint?: string;
}

export const TYPES = ['info', 'skill', 'episode', 'intent', 'todo', 'reflection', 'scratch'] as const;

const FIELDS: FieldSpec[] = [
  { field: 'title', label: 'title', kind: 'text', nullable: true },
  { field: 'content', label: 'content', kind: 'textarea' },
  { field: 'type', label: 'type', kind: 'select', options: TYPES },
  { field: 'status', label: 'todo status', kind: 'select', options: ['open', 'done', 'dropped'], nullable: true, hint: 'todos only' },
  { field: 'owner', label: 'owner', kind: 'text', hint: 'role or role@instance; empty = unowned' },
  { field: 'importance', label: 'importance', kind: 'number', hint: '0–10, or a label (low, high…)' },
  { field: 'salience', label: 'salience', kind: 'number', hint: '0–1' },
  { field: 'confidence', label: 'confidence', kind: 'number', hint: '0–1' },
  { field: 'tags', label: 'tags', kind: 'list', hint: 'comma-separated' },
  { field: 'entities', label: 'entities', kind: 'list', hint: 'comma-separated' },
  { field: 'mood', label: 'mood', kind: 'text', nullable: true },
  { field: 'place_or_task', label: 'place or task', kind: 'text', nullable: true },
  { field: 'source_task_ref', label: 'source task', kind: 'text', nullable: true },
  { field: 'valid_from', label: 'valid from', kind: 'time', nullable: true, hint: 'UTC' },
  { field: 'valid_to', label: 'valid to', kind: 'time', nullable: true, hint: 'UTC' },
  { field: 'trigger', label: 'trigger', kind: 'json', nullable: true, hint: '{"kind": "time"|"cue"|"event", "cue": …, "fire_at": …}' },
  { field: 'references', label: 'references', kind: 'json', hint: '[{"kind": "file"|"url"|"memory"|…, "key": …}]' },
];

function toText(kind: Kind, v: unknown): string {
  if (v === null || v === undefined) return '';
  if (kind === 'list') return (v as string[]).join(', ');
  if (kind === 'json') return JSON.stringify(v, null, 1);
  if (kind === 'time') return new Date((v as number) * 1000).toISOString().slice(0, 16);
  return String(v);
}

/** The typed value of an edited text, or an error the curator can fix before anything is sent. */
export function parseField(spec: FieldSpec, text: string): { value: unknown } | { error: string } {
  const t = text.trim();
  if (t === '' && spec.nullable) return { value: null };
  switch (spec.kind) {
    case 'number': {
      if (t === '') return { error: 'give a number' };
      const n = Number(t);
      return Number.isFinite(n) ? { value: n } : { value: t }; // a ladder label ("high") is the engine's to check
    }
    case 'list':
      return { value: t === '' ? [] : t.split(',').map((x) => x.trim()).filter(Boolean) };
    case 'json':
      try {
        return { value: JSON.parse(t === '' ? 'null' : t) };
      } catch (e) {
        return { error: `not valid JSON: ${(e as Error).message}` };
      }
    case 'time': {
      const ms = Date.parse(t.endsWith('Z') ? t : `${t}Z`);
      return Number.isFinite(ms) ? { value: ms / 1000 } : { error: 'give a date and time, e.g. 2026-05-01T12:00' };
    }
    case 'textarea':
    case 'text':
      return { value: spec.field === 'owner' ? t : text };
    case 'select':
      return { value: t === '' ? null : t };
  }
}

function FieldRow({ m, spec }: { m: Memory; spec: FieldSpec }) {
  const update = useUpdateMemory();
  const readOnly = useReadOnlyReason();
  const current = (m as unknown as Record<string, unknown>)[spec.field];
  const [editing, setEditing] = useState(false);
  const [text, setText] = useState('');
  const [local, setLocal] = useState<string | null>(null);
  // The engine's message for this field; any other refusal is shown here too (it is this field's save).
  const errs = fieldErrors(update.error);
  const serverError = errs[spec.field] ?? (update.error ? (update.error as Error).message : null);
  const error = local ?? serverError;
  const start = () => {
    setText(toText(spec.kind, current));
    setLocal(null);
    update.reset();
    setEditing(true);
  };
  const save = () => {
    const parsed = parseField(spec, text);
    if ('error' in parsed) {
      setLocal(parsed.error);
      return;
    }
    setLocal(null);
    if (JSON.stringify(parsed.value) === JSON.stringify(current ?? null)) {
      setEditing(false);
      return;
    }
    update.mutate({ id: m.id, patch: { [spec.field]: parsed.value } as never }, { onSuccess: () => setEditing(false) });
  };
  const input =
    spec.kind === 'textarea' || spec.kind === 'json' ? (
      <textarea autoFocus aria-label={spec.label} value={text} onChange={(e) => setText(e.target.value)} rows={spec.kind === 'json' ? 4 : 6} data-testid={`field-input-${spec.field}`} aria-invalid={!!error} />
    ) : spec.kind === 'select' ? (
      <select autoFocus aria-label={spec.label} value={text} onChange={(e) => setText(e.target.value)} data-testid={`field-input-${spec.field}`}>
        {spec.nullable ? <option value="">(none)</option> : null}
        {spec.options!.map((o) => (
          <option key={o}>{o}</option>
        ))}
      </select>
    ) : (
      <input
        // Edit moves focus into the field, so typing starts at once and Esc/Enter work from the keyboard.
        autoFocus
        aria-label={spec.label}
        // A time is typed as UTC, 24-hour: a datetime-local field would show it as a 12-hour local time.
        type="text"
        placeholder={spec.kind === 'time' ? 'YYYY-MM-DD HH:MM (UTC)' : undefined}
        value={text}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter') save();
          if (e.key === 'Escape') setEditing(false);
        }}
        data-testid={`field-input-${spec.field}`}
        aria-invalid={!!error}
      />
    );
  return (
    <tr className={editing ? 'editing' : ''} data-field={spec.field}>
      <th title={spec.hint}>{spec.label}</th>
      <td>
        {editing ? (
          <div className="field-edit">
            {input}
            <div className="row">
              <button className="primary" onClick={save} disabled={update.isPending} data-testid="field-save">
                Save
              </button>
              <button onClick={() => setEditing(false)}>Cancel</button>
              {spec.hint ? <span className="muted small">{spec.hint}</span> : null}
            </div>
            {error ? (
              <div className="field-error" role="alert" data-testid={`field-error-${spec.field}`}>
                {error}
              </div>
            ) : null}
          </div>
        ) : (
          <div className="field-view" onDoubleClick={start}>
            <span className={`value${current === null || current === undefined || current === '' ? ' muted' : ''}`} data-testid={`field-value-${spec.field}`}>
              {spec.kind === 'time' && typeof current === 'number' ? fmtTime(current) : toText(spec.kind, current) || '—'}
            </span>
            <button className="link edit" onClick={start} disabled={!!readOnly} data-testid={`edit-${spec.field}`} title={readOnly ?? `Edit ${spec.label}`}>
              ✎ edit
            </button>
          </div>
        )}
      </td>
    </tr>
  );
}

export function EditPanel({ m }: { m: Memory }) {
  return (
    <section className="panel" data-testid="edit-panel">
      <h3>
        Edit <span className="muted small">each save is one change in History (undoable); double-click a value to edit it</span>
      </h3>
      <table className="fields editable">
        <tbody>
          {FIELDS.map((f) => (
            <FieldRow key={`${m.id}-${f.field}`} m={m} spec={f} />
          ))}
        </tbody>
      </table>
    </section>
  );
}
