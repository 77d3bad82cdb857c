import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { DEFAULT_REQUEST_TIMEOUT_MSEC } from '@modelcontextprotocol/sdk/shared/protocol.js';
import { timeBudget } from './time-budget.js';

/**
 * An MCP SDK client for tests whose requests wait, unless a call gives its own `timeout`, the SDK's 60 s scaled by the
 * load (`timeBudget`): a fixed 60 s failed a whole validation call through the server at load 30 ("Request timed
 * out"). A call whose timeout is under test passes it, as before.
 */
export function mcpTestClient(name: string): Client {
  const client = new Client({ name, version: '1.0.0' });
  const request = client.request.bind(client);
  client.request = ((message, schema, options) =>
    request(message, schema, { timeout: timeBudget(DEFAULT_REQUEST_TIMEOUT_MSEC), ...options })) as typeof request;
  return client;
}
