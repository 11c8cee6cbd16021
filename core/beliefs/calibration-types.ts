/** The shape of the fitted calibrations (calibration-fitted.ts) and of what the API reports about them. */
import type { CalibrationCurve, CalibrationMap, ReliabilityBin } from './calibration.js';
import type { SignalsModel } from './signals-model.js';

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

/** How well a p ranks answers, besides how well it is calibrated. */
export interface DiscriminationFigures extends CalibrationFigures {
  /** The chance a right answer gets a higher p than a wrong one (ties count half). */
  auc: number;
  wrong: number;
  /** The answers in the lowest tenth by p (⌊n/10⌋), and how many of them were wrong. */
  lowest_tenth: number;
  wrong_in_lowest_tenth: number;
  /** Accuracy once a curator corrects the lowest tenth by p. */
  accuracy_lowest_tenth_corrected: number;
}

/** A spread over repeated cross-validations (entities dealt into folds anew each time). */
export interface Spread {
  mean: number;
  sd: number;
  min: number;
  max: number;
}

/** What signals-fitted.ts stores per profile and read mode. */
export interface StoredSignals {
  model: SignalsModel;
  dev: {
    answers: number;
    /** The model's own p. */
    model: DiscriminationFigures;
    /** The calibration map (Platt), each entity by a map fitted without it: the baseline to beat. */
    calibrated_cv: DiscriminationFigures;
    /** The stored signals model on the stream it was fitted on (in-sample). */
    signals: DiscriminationFigures;
    /** Each entity by a signals model fitted without it (5 folds by entity, in name order). */
    signals_cv: DiscriminationFigures;
    /** The same, repeated with the entities dealt into folds by seeded shuffles. */
    signals_cv_repeats: {
      repeats: number;
      accuracy_lowest_tenth_corrected: Spread;
      wrong_in_lowest_tenth: Spread;
      brier: Spread;
      brier_binary: Spread;
      auc: Spread;
      ece: Spread;
    };
  };
}

export type StoredSignalsModels = Record<string, Record<string, StoredSignals>>;
