import { readFile } from 'node:fs/promises';
import type { z } from 'zod';
import { errorMessage, TollgateError } from '../errors.js';
import { envelopeSchema, eventDataSchemas, isKnownEventType } from './schemas.js';
import type { EventEnvelope, TollgateEvent } from './types.js';

/**
 * An event read back from a log. Types this version knows are validated and typed; anything else (a newer
 * tollgate's event, or a known type whose data does not match) is kept as a generic envelope rather than dropped.
 */
export type ReadEvent =
  | { known: true; line: number; event: TollgateEvent }
  | { known: false; line: number; event: EventEnvelope<string, unknown> };

export interface LogProblem {
  /** 1-based line in the JSONL file. */
  line: number;
  message: string;
}

export interface EventLogRead {
  events: ReadEvent[];
  /** Lines that could not be read, with why; the rest of the log is still read. */
  problems: LogProblem[];
  /** The last line was cut off: the writer was killed mid-line (or the disk filled up). */
  truncatedLastLine: boolean;
}

/** Parses a JSONL event log. Never throws: a damaged line becomes a problem, and reading goes on. */
export function parseEventLog(text: string): EventLogRead {
  const lines = text.split('\n');
  const endsWithNewline = text.endsWith('\n');
  const read: EventLogRead = { events: [], problems: [], truncatedLastLine: false };
  lines.forEach((raw, index) => {
    const line = index + 1;
    if (raw.trim() === '') return;
    const isLast = index === lines.length - 1 && !endsWithNewline;
    let json: unknown;
    try {
      json = JSON.parse(raw);
    } catch (error) {
      if (isLast) {
        read.truncatedLastLine = true;
        read.problems.push({ line, message: 'cut off mid-line (the run was killed while writing it); ignored' });
      } else {
        read.problems.push({ line, message: `not valid JSON (${errorMessage(error)}); ignored` });
      }
      return;
    }
    const envelope = envelopeSchema().safeParse(json);
    if (!envelope.success) {
      read.problems.push({ line, message: `not an event envelope (${describeIssue(envelope.error)}); ignored` });
      return;
    }
    const event = envelope.data as EventEnvelope<string, unknown>;
    if (!isKnownEventType(event.type)) {
      read.events.push({ known: false, line, event });
      return;
    }
    const data = eventDataSchemas()[event.type].safeParse(event.data);
    if (!data.success) {
      read.problems.push({ line, message: `${event.type}: ${describeIssue(data.error)}; kept as an unknown event` });
      read.events.push({ known: false, line, event });
      return;
    }
    read.events.push({ known: true, line, event: { ...event, data: data.data } as TollgateEvent });
  });
  return read;
}

function describeIssue(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return 'invalid';
  const where = issue.path.length > 0 ? `${issue.path.map(String).join('.')}: ` : '';
  return `${where}${issue.message}`;
}

/** Reads and parses a log file; a missing file is `not_found`, naming `label` (the path as the user knows it). */
export async function readEventLog(path: string, label: string = path): Promise<EventLogRead> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
      throw new TollgateError('not_found', `${label}: no event log there`);
    }
    throw new TollgateError('io', `${label}: could not read: ${errorMessage(error)}`);
  }
  return parseEventLog(text);
}

/** The id to continue a chain from: the last persisted, non-ephemeral event. */
export function lastDurableId(read: EventLogRead): string | null {
  for (let index = read.events.length - 1; index >= 0; index--) {
    const { event } = read.events[index]!;
    if (!event.ephemeral) return event.id;
  }
  return null;
}
