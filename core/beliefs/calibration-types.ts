/** The shape of the fitted calibrations (calibration-fitted.ts) and of what the API reports about them. */
import type { CalibrationKnots, ReliabilityBin } from './calibration.js';

export interface CalibrationFigures {
  accuracy: number;
  /** The belief-stream scorer's Brier term (one-sided: never below 1 − accuracy). */
  brier: number;
  /** Expected calibration error over 10 equal-width bins. */
  ece: number;
  bins: ReliabilityBin[];
}

export interface FittedCalibration {
  knots: CalibrationKnots;
  dev: {
    answers: number;
    /** The model's own probabilities. */
    model: CalibrationFigures;
    /** Calibrated, each entity by a map fitted without it (5 folds). */
    calibrated_cv: CalibrationFigures;
  };
}

export type FittedCalibrations = Record<string, Record<string, FittedCalibration>>;
