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

/**
 * Who made a change, everywhere a change is listed: an agent by its owner, with its credential's
 * label when it used one; the operator (the workbench or the CLI); never a bare "local".
 */
export function WriterName({ credential, agentOwner }: { credential: CredentialRef | null; agentOwner: string | null }) {
  const owner = credential?.owner ?? agentOwner;
  if (!owner && !credential) {
    return (
      <span className="muted" data-testid="writer-name" data-writer="operator" title="made in the workbench or with the mnemo command">
        operator
      </span>
    );
  }
  return (
    <span data-testid="writer-name" data-writer="agent" data-owner={owner ?? ''}>
      agent {owner ?? 'of a removed credential'}
      {credential ? (
        <>
          {' '}
          <span className="muted">(</span>
          <CredentialName credential={credential} />
          <span className="muted">)</span>
        </>
      ) : (
        <span className="muted" title="an agent session without a credential (stdio MCP or the library)">
          {' '}
          (no credential)
        </span>
      )}
    </span>
  );
}
