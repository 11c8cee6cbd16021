/**
 * The forget room's policy (Ebbinghaus retention, protection, prune eligibility). Its definition
 * lives in the model layer, core/model/forget-policy.ts, because reflection and the usage views
 * (rooms on the forget room's own layer) need it too and siblings never import each other.
 */
export * from '../model/forget-policy.js';
