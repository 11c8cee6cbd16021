/**
 * Scoring profiles as data: the built-in ones and those saved in the store, each save, delete and
 * default a journalled change (History undoes it). A profile's JSON is the shape of a profile file
 * (`{ name, base, knobs, features }`, what `mnemo tune` writes), checked with ranges and no
 * unknown keys (core/recall/profile-schema.ts).
 */
import { z } from 'zod';
import { method } from '../define.js';
import { profileField } from './shared/fields.js';
import { profileNameSchema, profileOverridesSchema } from '../../recall/profile-schema.js';
import type { ProfileDiffRow, ProfileSaved, ProfileSummary, ProfileView } from '../../recall/types.js';
export type { ProfileDiffRow, ProfileSaved, ProfileSummary, ProfileView };

export const profilesContract = {
  'profiles.list': method<ProfileSummary[]>()({
    description: 'Every profile a call may name on this store: the built-in ones (nooa-0.0.9, mnemo), then the saved ones, each with its base and whether it is the default.',
    input: z.object({}).optional().default({}),
  }),
  'profiles.get': method<ProfileView>()({
    description: 'One profile: its full knobs and features (the profile file shape) and, for a saved one, how it differs from its base.',
    input: z.object({ name: profileField }),
  }),
  'profiles.save': method<ProfileSaved>()({
    description:
      'Save a profile under a name, as one journalled change (undo removes it): base (default mnemo, or a saved one) with knob and feature overrides, or a full profile as knobs and features. Built-in names are refused. Returns the diff against its base.',
    input: profileOverridesSchema.extend({ name: profileNameSchema, base: profileField.optional() }),
    mutates: true,
  }),
  'profiles.delete': method<{ name: string; change_id: number | null }>()({
    description: "Delete a saved profile, as one journalled change. Refused for a built-in profile and for the store's default.",
    input: z.object({ name: profileField }),
    mutates: true,
  }),
  'profiles.setDefault': method<{ name: string; previous: string; change_id: number | null }>()({
    description: "Make a profile (built in or saved) the store's default, as one journalled change (undo restores the previous default).",
    input: z.object({ name: profileField }),
    mutates: true,
  }),
  'profiles.diff': method<{ a: string; b: string; rows: ProfileDiffRow[] }>()({
    description: 'Every knob and feature where two profiles differ (a, b: their values).',
    input: z.object({ a: profileField, b: profileField }),
  }),
};
