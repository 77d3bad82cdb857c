import type { EventDataByType, EventType } from '../events/types.js';

/** Where the pipeline sends events. The run's JSONL log implements it; tests can collect into an array. */
export interface EventSink {
  emit<T extends EventType>(type: T, data: EventDataByType[T], options?: { ephemeral?: boolean }): void;
}

export const discardEvents: EventSink = { emit: () => {} };
