export {
  type ChangeSetSettings,
  type ChangeSetStart,
  createChangeSet,
  DEFAULT_MAX_FILE_SIZE,
  fingerprintTree,
  startChangeSet,
  type TreeFingerprint,
} from './create-change-set.js';
export type { EarlyStage } from './early-stage-type.js';
export { discardEarlyStage } from './temp-index.js';
export type * from './types.js';
export { isUnchanged } from './types.js';
