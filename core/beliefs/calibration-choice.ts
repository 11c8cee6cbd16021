/**
 * Which fitted calibration map (and signals model) applies to a belief read. A map was fitted for one profile's exact
 * constants and one read mode, so it applies only there: a store configured with any override (an
 * ablation, a changed half-life) reads the model's own probabilities, since the map would describe
 * another estimator.
 */
import { calibrationCurve, type CalibrationMap } from './calibration.js';
import { FITTED_CALIBRATIONS } from './calibration-fitted.js';
import type { FittedCalibration, StoredCalibration, StoredSignals } from './calibration-types.js';
import { FITTED_SIGNALS } from './signals-fitted.js';
import type { SignalsModel } from './signals-model.js';
import { PROFILE_CONFIGS, type BeliefConfig } from './config.js';

function isProfileAsShipped(config: BeliefConfig): boolean {
  const shipped = PROFILE_CONFIGS[config.profile];
  return (Object.keys(shipped) as (keyof BeliefConfig)[]).every((k) => shipped[k] === config[k]);
}

function storedCalibration(config: BeliefConfig, mode: string): StoredCalibration | null {
  if (!isProfileAsShipped(config)) return null;
  return FITTED_CALIBRATIONS[config.profile]?.[mode] ?? null;
}

/** The fitted calibration (map, its curve and dev figures) for this profile and mode, or null when none applies. */
export function fittedCalibration(config: BeliefConfig, mode: string): FittedCalibration | null {
  const stored = storedCalibration(config, mode);
  return stored && { ...stored, curve: calibrationCurve(stored.map) };
}

export function calibrationFor(config: BeliefConfig, mode: string): CalibrationMap | null {
  return storedCalibration(config, mode)?.map ?? null;
}

/** The fitted signals model (signals-model.ts) with its dev figures, for this profile and mode, or null when none applies. */
export function fittedSignals(config: BeliefConfig, mode: string): StoredSignals | null {
  if (!isProfileAsShipped(config)) return null;
  return FITTED_SIGNALS[config.profile]?.[mode] ?? null;
}

export function signalsModelFor(config: BeliefConfig, mode: string): SignalsModel | null {
  return fittedSignals(config, mode)?.model ?? null;
}
