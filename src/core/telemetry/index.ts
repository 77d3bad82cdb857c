export {
  type RunTelemetryInput,
  recordInterruptedRun,
  recordRunTelemetry,
  type TrivialDeclaration,
  toolTelemetry,
} from './record.js';
export { telemetryRecordSchema } from './record-schemas.js';
export {
  type CallTelemetry,
  SKIP_REASONS,
  type SkipReason,
  TELEMETRY_FILE,
  type TelemetryRecord,
  type ToolTelemetry,
} from './records.js';
export { readTelemetry, renderStats, summarizeTelemetry, type TelemetryStats } from './stats.js';
