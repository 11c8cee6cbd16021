/**
 * The credential filter of the Access audit and History: every credential of the store (revoked
 * ones too, marked), and "local" for what was done without one. Shown only when the store has a
 * credential, or a link asked for a filter: otherwise everything is local and there is nothing to pick.
 */
import type { AuditCredential } from '../../core/api/contract/index.js';
import { LOCAL } from '../state/credential-param.js';
import { credentialText } from './credential.js';

export function CredentialFilter({
  value,
  credentials,
  onChange,
  testId,
}: {
  value: string | null;
  credentials: readonly AuditCredential[];
  onChange: (value: string | null) => void;
  testId: string;
}) {
  if (credentials.length === 0 && value === null) return null;
  return (
    <label className="facet credential-filter">
      credential
      <select value={value ?? ''} onChange={(e) => onChange(e.target.value === '' ? null : e.target.value)} data-testid={testId}>
        <option value="">any</option>
        <option value={LOCAL}>local (no credential)</option>
        {credentials.map((c) => (
          <option key={c.id} value={c.id}>
            {credentialText(c)}
            {c.revoked ? ' (revoked)' : ''}
          </option>
        ))}
      </select>
    </label>
  );
}
