import type { CallToolResult, Tool, ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { McpCallExtra } from './progress.js';

/** One tool this server offers: what `tools/list` says of it, and how a call runs. */
export interface ToolEntry {
  name: string;
  title: string;
  description: string;
  /** What `tools/list` advertises; input is validated in the tool pipeline, so a bad field is a result, not an error. */
  inputSchema: z.ZodObject;
  outputSchema: z.ZodObject;
  annotations: ToolAnnotations;
  call: (args: unknown, extra: McpCallExtra) => Promise<CallToolResult>;
}

/** The entry as `tools/list` gives it: JSON Schema (draft 7) for input and output. */
export function describeEntry(entry: ToolEntry): Tool {
  return {
    name: entry.name,
    title: entry.title,
    description: entry.description,
    inputSchema: jsonSchemaOf(entry.inputSchema, 'input') as Tool['inputSchema'],
    outputSchema: jsonSchemaOf(entry.outputSchema, 'output') as NonNullable<Tool['outputSchema']>,
    annotations: entry.annotations,
  };
}

function jsonSchemaOf(schema: z.ZodObject, io: 'input' | 'output'): Record<string, unknown> {
  return z.toJSONSchema(schema, { target: 'draft-7', io }) as Record<string, unknown>;
}

/**
 * The tools on offer, which follow the config (it is read again on every request). When the list a client would see
 * changes, `onChange` runs (the server sends `notifications/tools/list_changed`). A tool advertised earlier in the
 * session stays callable: a client that follows the schema it was given is never refused because the config changed.
 */
export class ToolCatalog {
  private current = new Map<string, ToolEntry>();
  private readonly advertised = new Map<string, ToolEntry>();
  private signature: string | null = null;

  constructor(private readonly onChange: () => void) {}

  /** Replaces the tools on offer; returns whether the listed tools changed (never on the first call). */
  replace(entries: readonly ToolEntry[]): boolean {
    const signature = JSON.stringify(entries.map(describeEntry));
    this.current = new Map(entries.map((entry) => [entry.name, entry]));
    for (const entry of entries) this.advertised.set(entry.name, entry);
    if (signature === this.signature) return false;
    const first = this.signature === null;
    this.signature = signature;
    if (!first) this.onChange();
    return !first;
  }

  list(): Tool[] {
    return [...this.current.values()].map(describeEntry);
  }

  names(): string[] {
    return [...this.current.keys()];
  }

  /** A tool on offer now, or one advertised earlier in this session; undefined for a name never offered. */
  find(name: string): ToolEntry | undefined {
    return this.current.get(name) ?? this.advertised.get(name);
  }
}

/**
 * The object schema `tools/list` advertises for a tool's input. A validator's input schema may be wrapped
 * (`.prefault({})`, `.default()`, `.optional()`, a pipe); clients must be told the object inside, whose fields the
 * wrapped schema still parses in the tool pipeline.
 */
export function advertisedObject(schema: unknown, name: string): z.ZodObject {
  let current = schema as z.ZodType;
  for (let depth = 0; depth < 10; depth++) {
    if (current instanceof z.ZodObject) return current;
    const def = (current as { _zod: { def: { type: string; innerType?: z.ZodType; in?: z.ZodType } } })._zod.def;
    const inner = def.type === 'pipe' ? def.in : def.innerType;
    if (!inner) break;
    current = inner;
  }
  throw new Error(`${name}: its input schema is not an object schema, so MCP clients could not be told its arguments`);
}
