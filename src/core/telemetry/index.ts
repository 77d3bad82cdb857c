export { type RunTelemetryInput, recordRunTelemetry, type TrivialDeclaration, toolTelemetry } from './record.js';
export {
  type CallTelemetry,
  SKIP_REASONS,
  type SkipReason,
  TELEMETRY_FILE,
  type TelemetryRecord,
  type ToolTelemetry,
  telemetryRecordSchema,
} from './records.js';
export { readTelemetry, renderStats, summarizeTelemetry, type TelemetryStats } from './stats.js';
