export {
  type JsonFileRead,
  type ReadJsonFileOptions,
  readJsonFile,
  readJsonFileResult,
  type WriteFileAtomicOptions,
  writeFileAtomic,
  writeFileAtomicSync,
} from './atomic-write.js';
export {
  type AcquireLockOptions,
  acquireLock,
  describeHolder,
  type HeldLock,
  type LockHolder,
  withStateLock,
} from './lock.js';
export {
  canSkipNoChanges,
  type FindingSummary,
  type FindingSummaryInput,
  type LastFinding,
  lastFindings,
  lastVerdictFor,
  type RunVerdictInput,
  type RunVerdictRecord,
  readState,
  recordResult,
  recordRun,
  recordRunVerdict,
  type SkipDecision,
  type SkipQuery,
  type TollgateState,
  type ToolResultRecord,
  updateState,
  type VerdictQuery,
} from './results-store.js';
export {
  ensureRunDir,
  ensureTollgateDir,
  runDirFor,
  TOLLGATE_DIR,
  type TollgatePaths,
  tollgatePaths,
} from './tollgate-dir.js';
export {
  applyWaivers,
  listWaivers,
  removeWaiver,
  type WaiveRequest,
  type WaiverRecord,
  waiveFinding,
  waiversInForce,
} from './waivers.js';
