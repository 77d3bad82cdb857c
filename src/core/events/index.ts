export { type EventLogRead, type LogProblem, parseEventLog, type ReadEvent, readEventLog } from './reader.js';
export { type LoggedFinding, type RunSummary, replayRun, type ToolCallSummary } from './replay.js';
export type * from './types.js';
export { EPHEMERAL_TYPES } from './types.js';
export {
  createEventLog,
  type EmitOptions,
  EVENTS_FILE,
  type EventListener,
  type EventLog,
  newRunId,
  openEventLog,
} from './writer.js';
