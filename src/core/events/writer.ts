import { randomBytes, randomUUID } from 'node:crypto';
import { closeSync, mkdirSync, openSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { errorMessage, TollgateError } from '../errors.js';
import { isoTime } from '../iso-time.js';
import {
  EPHEMERAL_TYPES,
  type EventDataByType,
  type EventEnvelope,
  type EventType,
  type TollgateEvent,
} from './types.js';

/** The log file inside a run's folder. */
export const EVENTS_FILE = 'events.jsonl';

export interface EmitOptions {
  /** Default: by type (`EPHEMERAL_TYPES`). */
  ephemeral?: boolean;
  /** Default: the previous persisted event. */
  parentId?: string | null;
}

export type EventListener = (event: TollgateEvent) => void;

export interface EventLog {
  /** The JSONL file. */
  readonly path: string;
  /** Id of the last persisted event: the parent of the next one. */
  readonly lastId: string | null;
  /**
   * Builds the envelope, appends it as one line, and hands it to the listeners. Ephemeral events (progress, partial
   * output) reach the listeners always but the file only with `verbose`, and are never anyone's parent: the durable
   * chain is the same with or without `--verbose`.
   */
  emit<T extends EventType>(
    type: T,
    data: EventDataByType[T],
    options?: EmitOptions,
  ): EventEnvelope<T, EventDataByType[T]>;
  /** Subscribes to every event (the live progress display); returns the unsubscribe function. */
  onEvent(listener: EventListener): () => void;
  /**
   * Closes the file. Events emitted afterwards still reach the listeners but are not persisted (a tool that ignored
   * its abort signal must not crash the run). Throws the first write error, if any write failed.
   */
  close(): void;
}

export interface EventLogOptions {
  /** Persist ephemeral events too (`--verbose`). */
  verbose: boolean;
}

/** The event log of one run: `<runDir>/events.jsonl`, created with the folder (0700) if needed. */
export function createEventLog(runDir: string, options: EventLogOptions): EventLog {
  mkdirSync(runDir, { recursive: true, mode: 0o700 });
  return openEventLog(join(runDir, EVENTS_FILE), options);
}

export interface OpenEventLogOptions extends EventLogOptions {
  /** Continue an existing chain (the last id already in the file). */
  parentId?: string | null;
}

/**
 * Appends to any JSONL event file. Opened with O_APPEND (mode 0600), and each event is one `write` of one complete
 * line, so a run killed at any moment leaves every earlier event intact and readable.
 */
export function openEventLog(path: string, options: OpenEventLogOptions): EventLog {
  let fd: number | null;
  try {
    fd = openSync(path, 'a', 0o600);
  } catch (error) {
    throw new TollgateError('io', `${path}: could not open the event log: ${errorMessage(error)}`);
  }
  let lastId: string | null = options.parentId ?? null;
  let writeError: TollgateError | null = null;
  const listeners = new Set<EventListener>();

  const persist = (line: string): void => {
    if (fd === null || writeError) return;
    const bytes = Buffer.from(line);
    try {
      let written = writeSync(fd, bytes);
      // A regular file takes the whole line in one write; finish it should a short write ever happen.
      while (written < bytes.length) written += writeSync(fd, bytes, written, bytes.length - written);
    } catch (error) {
      // Keep the run going; `close()` reports it, since a run whose record is incomplete must not pass silently.
      writeError = new TollgateError('io', `${path}: could not append to the event log: ${errorMessage(error)}`);
    }
  };

  return {
    path,
    get lastId() {
      return lastId;
    },
    emit(type, data, emitOptions = {}) {
      const ephemeral = emitOptions.ephemeral ?? EPHEMERAL_TYPES.has(type);
      const envelope = {
        id: randomUUID(),
        parentId: emitOptions.parentId === undefined ? lastId : emitOptions.parentId,
        timestamp: isoTime(),
        type,
        ...(ephemeral ? { ephemeral: true } : {}),
        data,
      };
      if (!ephemeral || options.verbose) persist(`${serialize(envelope)}\n`);
      if (!ephemeral) lastId = envelope.id;
      for (const listener of listeners) {
        try {
          listener(envelope as TollgateEvent);
        } catch {
          // A display that throws must not take the run down.
        }
      }
      return envelope;
    },
    onEvent(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    close() {
      if (fd !== null) {
        try {
          closeSync(fd);
        } catch {
          // Nothing left to save.
        }
        fd = null;
      }
      if (writeError) throw writeError;
    },
  };
}

/** Results are plain data; should one ever hold a cycle or a BigInt, keep the envelope and say what was lost. */
function serialize(envelope: EventEnvelope): string {
  try {
    return JSON.stringify(envelope);
  } catch (error) {
    return JSON.stringify({ ...envelope, data: { unserializable: errorMessage(error) } });
  }
}

/**
 * A run id that sorts by time: `20261123T105600Z-1f4c0a` (UTC to the second; then the millisecond in three hex digits,
 * so that `log` and the run retention take runs of one second in the order they started; then 12 random bits, so that
 * runs started in the same millisecond still get distinct folders).
 */
export function newRunId(now: Date = new Date()): string {
  const stamp = isoTime(now)
    .replace(/\.\d{3}Z$/, 'Z')
    .replace(/[-:]/g, '');
  const millisecond = now.getUTCMilliseconds().toString(16).padStart(3, '0');
  return `${stamp}-${millisecond}${randomBytes(2).toString('hex').slice(0, 3)}`;
}

/** Matches ids from `newRunId`. */
export const RUN_ID_PATTERN = /^\d{8}T\d{6}Z-[0-9a-f]{6}$/;
