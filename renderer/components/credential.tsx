/**
 * How the workbench names an agent credential: its label, else its owner, with the first digits of
 * its id so two credentials of one owner can be told apart. The full owner and id are in the tooltip.
 */
import type { CredentialRef } from '../../core/api/contract/index.js';
import './credential.css';

export const SHORT_CREDENTIAL_ID = 6;

function credentialLabel(c: CredentialRef): string {
  return c.label ?? c.owner ?? 'removed credential';
}

export function credentialText(c: CredentialRef): string {
  return `${credentialLabel(c)} · ${c.id.slice(0, SHORT_CREDENTIAL_ID)}`;
}

/**
 * The label is cut with an ellipsis in a narrow column (a label may be 200 characters), never the
 * short id: that is what tells two credentials of one owner apart.
 */
export function CredentialName({ credential }: { credential: CredentialRef | null }) {
  if (!credential) return <span className="muted">local</span>;
  const title = `agent credential ${credential.id}${credential.owner ? ` of ${credential.owner}` : ''}: ${credentialLabel(credential)}`;
  return (
    <span className="credential" title={title} data-testid="credential-name" data-credential-id={credential.id}>
      <span className="credential-label">{credentialLabel(credential)}</span>
      <span className="credential-id">{` · ${credential.id.slice(0, SHORT_CREDENTIAL_ID)}`}</span>
    </span>
  );
}
