/** The shape of the fitted calibrations (calibration-fitted.ts) and of what the API reports about them. */
import type { CalibrationCurve, CalibrationMap, ReliabilityBin } from './calibration.js';

export interface CalibrationFigures {
  accuracy: number;
  /** The belief-stream scorer's Brier term (one-sided: never below 1 − accuracy). */
  brier: number;
  /** The proper Brier score of "the answer is right", (p − 1{right})² averaged. */
  brier_binary: number;
  /** Expected calibration error over 10 equal-width bins. */
  ece: number;
  bins: ReliabilityBin[];
}

/** What calibration-fitted.ts stores per profile and read mode. */
export interface StoredCalibration {
  map: CalibrationMap;
  dev: {
    answers: number;
    /** The model's own probabilities. */
    model: CalibrationFigures;
    /** Calibrated by the stored map, on the stream it was fitted on (in-sample). */
    calibrated: CalibrationFigures;
    /** Calibrated, each entity by a map fitted without it (5 folds): the held-out figures. */
    calibrated_cv: CalibrationFigures;
  };
}

/** A stored calibration with its map sampled for drawing. */
export interface FittedCalibration extends StoredCalibration {
  curve: CalibrationCurve;
}

export type StoredCalibrations = Record<string, Record<string, StoredCalibration>>;
