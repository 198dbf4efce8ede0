export * from './estimator.js';
export * from './accountant.js';
