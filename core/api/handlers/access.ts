import { filteredCredentialId } from '../../model/agent-credential.js';
import { listAccesses } from '../../observe/access-log.js';
import { touchOne } from '../../recall/record.js';
import { BEFORE_ACCESS_S, loggedAccessTime, replay } from '../../recall/replay.js';
import type { accessContract } from '../contract/access.js';
import type { HandlersFor } from './types.js';
import { listCredentialRows } from '../../store/queries/credentials.js';

export const accessHandlers: HandlersFor<typeof accessContract> = {
  'access.list': (input, session) =>
    listAccesses(session.readingAt(input.at), {
      channels: input.channels,
      readerOwner: input.reader_owner,
      crossOwnerOnly: input.cross_owner_only,
      query: input.query,
      memoryId: input.memory_id,
      credentialId: input.credential === undefined ? undefined : filteredCredentialId(input.credential),
      since: input.since,
      until: input.until,
      order: input.order,
      offset: input.offset,
      limit: input.limit,
    }),
  'access.credentials': (_input, session) => ({
    credentials: listCredentialRows(session.reading().store).map((c) => ({ id: c.id, owner: c.owner, label: c.label, revoked: c.revoked_at !== null })),
  }),
  'access.replay': (input, session) => {
    const overrides = { hops: input.hops, owner: input.owner, k: input.k, profile: input.profile };
    const live = session.reading();
    if (!input.as_of_then) return replay(live, input.event_id, overrides);
    // Just before the access was logged (its own changes not yet in), ranked at the access's clock.
    const ts = loggedAccessTime(live, input.event_id);
    const at = ts - BEFORE_ACCESS_S;
    const past = session.readingAt(at);
    return replay(past, input.event_id, overrides, { asOf: past.store.history ?? live.store.asOf(at), now: ts });
  },
  'access.deref': (input, session) => ({ memory: touchOne(session.engine(), input.id, 'deref', session.reader), logged: true }),
  'access.reinforce': (input, session) => ({ memory: touchOne(session.engine(), input.id, 'reinforced', session.reader, input.bump), logged: true }),
};
