/** Issue 18: a link's credential filter is checked against the store's credentials; one that names none is reported, not sent. */
import { describe, expect, it } from 'vitest';
import { credentialParam } from '../../renderer/state/credential-param.js';

const credentials = [
  { id: 'a1b2c3d4e5f6', owner: 'coder@laptop', label: 'laptop', revoked: false },
  { id: '0f0f0f0f0f0f', owner: 'coder@ci', label: null, revoked: true },
];

describe('credentialParam', () => {
  it('no value is no filter; "local" needs no list; a listed id (revoked too) is used as given', () => {
    expect(credentialParam(null, undefined, 'accesses')).toEqual({ value: null, error: null, ready: true });
    expect(credentialParam('', undefined, 'accesses')).toEqual({ value: null, error: null, ready: true });
    expect(credentialParam('local', undefined, 'accesses')).toEqual({ value: 'local', error: null, ready: true });
    expect(credentialParam('0f0f0f0f0f0f', credentials, 'changes')).toEqual({ value: '0f0f0f0f0f0f', error: null, ready: true });
  });

  it('waits for the list before deciding on an id', () => {
    expect(credentialParam('a1b2c3d4e5f6', undefined, 'accesses')).toEqual({ value: null, error: null, ready: false });
  });

  it('drops an id the store does not have, and says what it shows instead', () => {
    expect(credentialParam('ffffffffffff', credentials, 'changes')).toEqual({
      value: null,
      error: `The link's credential "ffffffffffff" is not one of this store's credentials; showing every credential's changes instead.`,
      ready: true,
    });
  });
});
