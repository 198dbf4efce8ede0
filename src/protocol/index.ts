export * from './items.js';
export * from './errors.js';
export * from './stream.js';
export * from './client-options.js';
export * from './json.js';
