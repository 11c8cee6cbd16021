/** The store's agent credentials, for the filters of the Access audit and History. */
import { useQuery } from '@tanstack/react-query';
import { call } from './client.js';
import { keys } from './keys.js';

/** Every credential issued for the open store, revoked ones too (their accesses and changes stay in the log). */
export function useCredentials() {
  return useQuery({ queryKey: keys.credentials(), queryFn: () => call('access.credentials', {}), staleTime: 10_000 });
}
