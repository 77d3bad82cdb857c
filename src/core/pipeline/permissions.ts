import { randomUUID } from 'node:crypto';
import type { TollgateConfig } from '../config/schema.js';
import type { EventSink } from './event-sink.js';
import type { Permission } from './tool.js';

export type PermissionDecision = { approved: true } | { approved: false; permission: Permission; reason: string };

/**
 * Checks each permission a tool declares against config `permissions`, recording a `permission.requested` /
 * `permission.completed` pair for each so that the log shows every decision, even those no one was asked about.
 */
export function checkPermissions(options: {
  toolName: string;
  toolCallId: string;
  required: readonly Permission[];
  policy: TollgateConfig['permissions'];
  events: EventSink;
}): PermissionDecision {
  for (const permission of options.required) {
    const requestId = randomUUID();
    options.events.emit('permission.requested', {
      requestId,
      toolCallId: options.toolCallId,
      permissionRequest: { kind: permission, toolName: options.toolName },
    });
    const allowed = options.policy[permission] === 'allow';
    const reason = allowed
      ? undefined
      : `denied by permissions.${permission}: "deny" in the config; set it to "allow" or skip the tool with --skip ${options.toolName}`;
    options.events.emit('permission.completed', {
      requestId,
      toolCallId: options.toolCallId,
      result: allowed ? { kind: 'approved' } : { kind: 'denied', reason },
      decisionSource: 'config',
    });
    if (!allowed) return { approved: false, permission, reason: reason! };
  }
  return { approved: true };
}
