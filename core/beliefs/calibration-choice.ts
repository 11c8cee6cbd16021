/**
 * Which fitted calibration map applies to a belief read. A map was fitted for one profile's exact
 * constants and one read mode, so it applies only there: a store configured with any override (an
 * ablation, a changed half-life) reads the model's own probabilities, since the map would describe
 * another estimator.
 */
import type { CalibrationKnots } from './calibration.js';
import { FITTED_CALIBRATIONS } from './calibration-fitted.js';
import type { FittedCalibration } from './calibration-types.js';
import { PROFILE_CONFIGS, type BeliefConfig } from './config.js';

function isProfileAsShipped(config: BeliefConfig): boolean {
  const shipped = PROFILE_CONFIGS[config.profile];
  return (Object.keys(shipped) as (keyof BeliefConfig)[]).every((k) => shipped[k] === config[k]);
}

/** The fitted calibration (map and dev figures) for this profile and mode, or null when none applies. */
export function fittedCalibration(config: BeliefConfig, mode: string): FittedCalibration | null {
  if (!isProfileAsShipped(config)) return null;
  return FITTED_CALIBRATIONS[config.profile]?.[mode] ?? null;
}

export function calibrationFor(config: BeliefConfig, mode: string): CalibrationKnots | null {
  const fitted = fittedCalibration(config, mode);
  return fitted && fitted.knots.length > 0 ? fitted.knots : null;
}
