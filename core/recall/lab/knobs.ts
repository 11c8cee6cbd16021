/**
 * The numeric knobs the lab can sweep, by their path in a profile's configuration, and how to set
 * one on top of a profile (the result is checked as a whole, like any saved profile).
 */
import { badInput } from '../../errors.js';
import type { RecallProfile } from '../profile.js';
import { applyOverrides } from '../saved-profiles.js';
import type { ProfileOverrides } from '../profile-schema.js';
import { SWEEP_KNOB_PATHS, SWEEP_KNOBS, type SweepKnob } from './names.js';

export { SWEEP_KNOB_PATHS, SWEEP_KNOBS, type SweepKnob };

export function sweepKnob(path: string): SweepKnob {
  const knob = SWEEP_KNOBS.find((k) => k.path === path);
  if (!knob) throw badInput(`the lab cannot sweep ${JSON.stringify(path)}; it sweeps ${SWEEP_KNOB_PATHS.join(', ')}`, { field: 'knob' });
  return knob;
}

/** The knob's value in a profile (0 for a feature that is off, such as the BM25 leg). */
export function knobValue(profile: RecallProfile, path: string): number {
  let v: unknown = profile;
  for (const part of path.split('.')) v = v && typeof v === 'object' ? (v as Record<string, unknown>)[part] : undefined;
  return typeof v === 'number' ? v : 0;
}

/** The profile with one knob set (a nested override, so the rest stays the base's). */
export function withKnob(profile: RecallProfile, path: string, value: number): RecallProfile {
  const knob = sweepKnob(path);
  const v = knob.integer ? Math.round(value) : value;
  const override: Record<string, unknown> = {};
  let at = override;
  const parts = path.split('.');
  parts.forEach((part, i) => {
    if (i === parts.length - 1) at[part] = v;
    else at = (at[part] = {}) as Record<string, unknown>;
  });
  const config = applyOverrides(profile, override as ProfileOverrides);
  return { name: `${profile.name} (${path} = ${v})`, knobs: config.knobs, features: config.features };
}
