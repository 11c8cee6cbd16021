import { deleteProfile, diffProfiles, listProfiles, profileView, resolveProfile, saveProfile, setDefaultProfile } from '../../recall/saved-profiles.js';
import type { profilesContract } from '../contract/profiles.js';
import type { HandlersFor } from './types.js';

export const profilesHandlers: HandlersFor<typeof profilesContract> = {
  'profiles.list': (_input, session) => listProfiles(session.reading().store),
  'profiles.get': (input, session) => profileView(session.reading().store, input.name),
  'profiles.save': (input, session) => saveProfile(session.engine().store, input),
  'profiles.delete': (input, session) => deleteProfile(session.engine().store, input.name),
  'profiles.setDefault': (input, session) => setDefaultProfile(session.engine().store, input.name),
  'profiles.diff': (input, session) => {
    const store = session.reading().store;
    return { a: input.a, b: input.b, rows: diffProfiles(resolveProfile(store, input.a), resolveProfile(store, input.b)) };
  },
};
