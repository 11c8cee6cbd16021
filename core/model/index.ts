export * from './enums.js';
export * from './memory.js';
export * from './owner.js';
export * from './ladders.js';
export * from './pyjson.js';
