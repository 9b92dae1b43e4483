export * from './errors.js';
export * from './framing.js';
export * from './tools.js';
export * from './messages.js';
export * from './validate.js';
export * from './version.js';
export * from './constants.js';
export * from './refs.js';
