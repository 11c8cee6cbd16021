/**
 * Profiles as data: a saved profile is a name, the profile it started from and its full knobs and
 * features, stored in the store (store/sqlite/saved-profiles.ts) and saved, deleted or made the default
 * as journalled changes. Any call that takes a profile resolves its name here, against the two
 * built-in profiles and the store's saved ones; an unknown name is a bad_input naming what exists.
 */
import type { EngineReader } from '../engine/engine.js';
import { badInput, MnemoError, notFound } from '../errors.js';
import { BUILTIN_PROFILE_NAMES, isBuiltinProfile } from '../model/profile-names.js';
import type { StoreReader, StoreWriter } from '../store/port/port.js';
import { profileConfig, profileFor, type RecallFeatures, type RecallKnobs, type RecallProfile } from './profile.js';
import { MAX_PROFILE_JSON, MAX_SAVED_PROFILES, profileConfigSchema, type ProfileConfig, type ProfileOverrides } from './profile-schema.js';
import type { ProfileDiffRow, ProfileSaved, ProfileSummary, ProfileView } from './types.js';
import { defaultProfile, deleteSavedProfile, putSavedProfile, savedProfile, savedProfiles, setDefaultProfile as storeDefaultProfile } from '../store/queries/saved-profiles.js';

/** Every profile name a call may use on this store: the built-in ones, then the saved ones. */
export function knownProfileNames(store: StoreReader): string[] {
  return [...BUILTIN_PROFILE_NAMES, ...savedProfiles(store).map((r) => r.name)];
}

function unknownProfile(store: StoreReader, name: string): MnemoError {
  const known = knownProfileNames(store);
  return badInput(`unknown profile ${JSON.stringify(name)}; the profiles of this store are ${known.join(', ')}`, { field: 'profile', profile: name, known });
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object') {
    for (const v of Object.values(value)) deepFreeze(v);
    Object.freeze(value);
  }
  return value;
}

function fromConfig(name: string, config: ProfileConfig): RecallProfile {
  return deepFreeze({ name, knobs: config.knobs as RecallKnobs, features: config.features as RecallFeatures });
}

/** Checks a profile's configuration against the schema; the message names the first bad field. */
export function checkedConfig(config: unknown, what: string): ProfileConfig {
  const parsed = profileConfigSchema.safeParse(config);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw badInput(`${what}: ${issue.path.join('.') || 'the profile'} ${issue.message}`, { field: issue.path.join('.') });
  }
  return parsed.data;
}

/** The profile a name stands for on this store (built in, or saved and checked again as it is read). */
export function resolveProfile(store: StoreReader, name: string): RecallProfile {
  if (isBuiltinProfile(name)) return profileFor(name);
  const row = savedProfile(store, name);
  if (!row) throw unknownProfile(store, name);
  let json: unknown;
  try {
    json = JSON.parse(row.config);
  } catch {
    throw badInput(`saved profile ${JSON.stringify(name)} is not valid JSON; save it again`, { profile: name });
  }
  return fromConfig(name, checkedConfig(json, `saved profile ${JSON.stringify(name)}`));
}

/** The profile a call names, or the store's default. */
export function profileOf(engine: EngineReader, name: string | undefined): RecallProfile {
  return resolveProfile(engine.store, name ?? engine.profile());
}

/** Flat `section.key` paths of a configuration, so two profiles compare knob by knob. */
function flatten(value: unknown, prefix: string, out: Map<string, unknown>): Map<string, unknown> {
  if (value && typeof value === 'object' && !Array.isArray(value)) {
    for (const [k, v] of Object.entries(value)) flatten(v, prefix ? `${prefix}.${k}` : k, out);
  } else {
    out.set(prefix, value);
  }
  return out;
}

/** Every knob and feature where two profiles differ, in a stable order. */
export function diffProfiles(a: RecallProfile, b: RecallProfile): ProfileDiffRow[] {
  const fa = flatten(profileConfig(a), '', new Map());
  const fb = flatten(profileConfig(b), '', new Map());
  const keys = [...new Set([...fa.keys(), ...fb.keys()])];
  const rows: ProfileDiffRow[] = [];
  for (const key of keys) {
    const va = fa.has(key) ? fa.get(key)! : null;
    const vb = fb.has(key) ? fb.get(key)! : null;
    if (JSON.stringify(va) !== JSON.stringify(vb)) rows.push({ key, a: va ?? null, b: vb ?? null });
  }
  return rows;
}

/** A base profile with overrides applied, checked as a whole. */
export function applyOverrides(base: RecallProfile, overrides: ProfileOverrides): ProfileConfig {
  const b = profileConfig(base) as ProfileConfig;
  const { weights, ...knobs } = overrides.knobs ?? {};
  const { bm25, ...features } = overrides.features ?? {};
  const merged = {
    knobs: { ...b.knobs, ...knobs, weights: { ...b.knobs.weights, ...weights } },
    features: {
      ...b.features,
      ...features,
      bm25: bm25 === undefined ? b.features.bm25 : bm25 === null ? null : { ...(b.features.bm25 ?? defaultBm25()), ...bm25 },
    },
  };
  return checkedConfig(merged, 'the profile');
}

/** What a bm25 override starts from when its base has the leg off: the mnemo profile's leg. */
function defaultBm25(): NonNullable<ProfileConfig['features']['bm25']> {
  return { ...(profileFor('mnemo').features.bm25 as NonNullable<ProfileConfig['features']['bm25']>) };
}

export function listProfiles(store: StoreReader): ProfileSummary[] {
  const current = defaultProfile(store);
  const builtins: ProfileSummary[] = BUILTIN_PROFILE_NAMES.map((name) => ({ name, builtin: true, base: null, is_default: name === current, created_at: null, updated_at: null }));
  const saved: ProfileSummary[] = savedProfiles(store).map((r) => ({ name: r.name, builtin: false, base: r.base, is_default: r.name === current, created_at: r.created_at, updated_at: r.updated_at }));
  return [...builtins, ...saved];
}

export function profileView(store: StoreReader, name: string): ProfileView {
  const profile = resolveProfile(store, name);
  const row = isBuiltinProfile(name) ? null : savedProfile(store, name);
  const base = row ? baseOrNull(store, row.base) : null;
  return {
    name,
    builtin: row === null,
    base: row?.base ?? null,
    is_default: defaultProfile(store) === name,
    config: profileConfig(profile),
    diff_from_base: base ? diffProfiles(base, profile) : [],
  };
}

/** A saved profile's base may since have been deleted: its diff is then empty rather than an error. */
function baseOrNull(store: StoreReader, name: string): RecallProfile | null {
  try {
    return resolveProfile(store, name);
  } catch {
    return null;
  }
}

function refuseBuiltin(name: string, verb: string): void {
  const lower = name.toLowerCase();
  if (BUILTIN_PROFILE_NAMES.some((b) => b === lower)) throw badInput(`${JSON.stringify(name)} is a built-in profile and cannot be ${verb}; save under another name`, { field: 'name', profile: name });
}

export interface SaveProfileInput extends ProfileOverrides {
  name: string;
  /** The profile the overrides apply to; `mnemo` when absent. */
  base?: string | undefined;
}

/** Saves (or replaces) a profile as one journalled change; returns it with its diff against its base. */
export function saveProfile(store: StoreWriter, input: SaveProfileInput): ProfileSaved {
  refuseBuiltin(input.name, 'overwritten');
  const baseName = input.base ?? 'mnemo';
  const base = resolveProfile(store, baseName);
  const config = applyOverrides(base, input);
  const json = JSON.stringify(config);
  if (json.length > MAX_PROFILE_JSON) throw badInput(`the profile's JSON is ${json.length} characters; the most is ${MAX_PROFILE_JSON}`, { field: 'profile' });
  const existing = savedProfile(store, input.name);
  if (!existing && savedProfiles(store).length >= MAX_SAVED_PROFILES) {
    throw badInput(`this store already keeps ${MAX_SAVED_PROFILES} saved profiles (the most); delete one first`, { field: 'name' });
  }
  const now = store.clock.now();
  const { changeId } = store.change(`save profile ${input.name}`, 'profile.save', () =>
    putSavedProfile(store, { name: input.name, base: baseName, config: json, created_at: existing?.created_at ?? now, updated_at: now, default_since: existing?.default_since ?? null }),
    { profile: input.name, base: baseName },
  );
  const profile = fromConfig(input.name, config);
  return { name: input.name, base: baseName, replaced: existing !== null, change_id: changeId, config: profileConfig(profile), diff: diffProfiles(base, profile) };
}

export function deleteProfile(store: StoreWriter, name: string): { name: string; change_id: number | null } {
  refuseBuiltin(name, 'deleted');
  if (!savedProfile(store, name)) throw notFound(`no saved profile named ${JSON.stringify(name)}; the profiles of this store are ${knownProfileNames(store).join(', ')}`, { profile: name });
  if (defaultProfile(store) === name) throw badInput(`profile ${JSON.stringify(name)} is the store's default profile; set another default first (mnemo profiles default <name>)`, { field: 'name', profile: name });
  const { changeId } = store.change(`delete profile ${name}`, 'profile.delete', () => deleteSavedProfile(store, name), { profile: name });
  return { name, change_id: changeId };
}

export function setDefaultProfile(store: StoreWriter, name: string): { name: string; previous: string; change_id: number | null } {
  resolveProfile(store, name); // refuses an unknown name, or a saved one that no longer checks
  const previous = defaultProfile(store);
  const { changeId } = store.change(`default profile ${name}`, 'profile.default', () => storeDefaultProfile(store, name), { profile: name, previous });
  return { name, previous, change_id: changeId };
}
