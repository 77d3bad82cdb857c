import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { DEFAULT_REQUEST_TIMEOUT_MSEC } from '@modelcontextprotocol/sdk/shared/protocol.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import type { JsonSchemaValidator, jsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/types.js';
import { timeBudget } from './time-budget.js';

/**
 * The SDK's own validator of tools' output schemas, compiled once per schema for the whole worker: each client
 * compiles every tool's output schema at each `tools/list`, about 0.1 s of CPU for tollgate's tools, and the MCP
 * tests make hundreds of clients of the same server. Same schema text, same compiled check.
 */
const ajv = new AjvJsonSchemaValidator();
const compiled = new Map<string, JsonSchemaValidator<unknown>>();
const sharedValidator: jsonSchemaValidator = {
  getValidator<T>(schema: Parameters<jsonSchemaValidator['getValidator']>[0]): JsonSchemaValidator<T> {
    const key = JSON.stringify(schema);
    let validator = compiled.get(key);
    if (!validator) {
      validator = ajv.getValidator<unknown>(schema);
      compiled.set(key, validator);
    }
    return validator as JsonSchemaValidator<T>;
  },
};

/**
 * An MCP SDK client for tests whose requests wait, unless a call gives its own `timeout`, the SDK's 60 s scaled by the
 * load (`timeBudget`): a fixed 60 s failed a whole validation call through the server at load 30 ("Request timed
 * out"). A call whose timeout is under test passes it, as before.
 */
export function mcpTestClient(name: string): Client {
  const client = new Client({ name, version: '1.0.0' }, { jsonSchemaValidator: sharedValidator });
  const request = client.request.bind(client);
  client.request = ((message, schema, options) =>
    request(message, schema, { timeout: timeBudget(DEFAULT_REQUEST_TIMEOUT_MSEC), ...options })) as typeof request;
  return client;
}
