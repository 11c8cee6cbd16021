import { z } from 'zod';
import { method } from '../define.js';

export interface StoreInfo {
  path: string;
  name: string;
  profile: 'nooa-0.0.9' | 'mnemo';
  readonly: boolean;
  nooa_schema_version: number;
  mnemo_schema_version: number;
  data_version: number;
  embedder: string;
  dim: number;
  now: number;
  clock_frozen: boolean;
  counts: { memories: number; live: number; archived: number; edges: number; events: number; changes: number };
}

export const storeContract = {
  'store.open': method<StoreInfo>()({
    description:
      'Open an existing nooa or Mnemo store and make it the current store. Never creates or converts a file (that is mnemo init); browser mode opens only the store it was started with or stores under its --root; the app opens stores only from its dialog.',
    input: z.object({
      path: z.string().min(1, 'path is required').max(4096, 'path is too long').refine((p) => !p.includes('\0'), 'path contains a NUL byte'),
      // Kept in the schema only to refuse it with the way to do it instead.
      create: z.literal(false, { message: 'store.open never creates a store; create one with "mnemo init <path>"' }).optional(),
      readonly: z.boolean().optional(),
    }),
    switchesStore: true,
  }),
  'store.info': method<StoreInfo>()({
    description: 'Facts about the current store: path, profile, schema versions, counts, data_version.',
    input: z.object({}).optional().default({}),
  }),
};
