export { createChangeSet, DEFAULT_MAX_FILE_SIZE } from './create-change-set.js';
export type * from './types.js';
export { isUnchanged } from './types.js';
