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
    description: 'Open a store file (creating it when `create` is set) and make it the current store.',
    input: z.object({
      path: z.string().min(1, 'path is required'),
      create: z.boolean().optional(),
      readonly: z.boolean().optional(),
    }),
  }),
  'store.info': method<StoreInfo>()({
    description: 'Facts about the current store: path, profile, schema versions, counts, data_version.',
    input: z.object({}).optional().default({}),
  }),
};
