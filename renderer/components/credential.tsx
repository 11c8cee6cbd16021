/**
 * How the workbench names an agent credential: its label, else its owner, with the first digits of
 * its id so two credentials of one owner can be told apart. The full owner and id are in the tooltip.
 */
import type { CredentialRef } from '../../core/api/contract/index.js';

export const SHORT_CREDENTIAL_ID = 6;

export function credentialText(c: CredentialRef): string {
  return `${c.label ?? c.owner ?? 'removed credential'} · ${c.id.slice(0, SHORT_CREDENTIAL_ID)}`;
}

export function CredentialName({ credential }: { credential: CredentialRef | null }) {
  if (!credential) return <span className="muted">local</span>;
  const title = `agent credential ${credential.id}${credential.owner ? ` of ${credential.owner}` : ''}`;
  return (
    <span className="credential" title={title} data-testid="credential-name" data-credential-id={credential.id}>
      {credentialText(credential)}
    </span>
  );
}
