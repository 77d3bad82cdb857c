import {
  applyEdits,
  type FormattingOptions,
  findNodeAtLocation,
  format,
  getNodeValue,
  modify,
  type ParseError,
  parseTree,
  printParseErrorCode,
} from 'jsonc-parser';
import { TollgateError } from '../../core/errors.js';
import type { HookEdit } from './hook-agent.js';

/**
 * Format-preserving edits of the agents' JSON (and JSONC) config files: comments, key order, indentation and the
 * entries of other tools stay as they are; only the entry we add or remove changes.
 */

type JsonPath = (string | number)[];

export function readJsonText(text: string, label: string): Record<string, unknown> {
  if (text.trim() === '') return {};
  const errors: ParseError[] = [];
  const tree = parseTree(text, errors, { allowTrailingComma: true, disallowComments: false });
  if (errors.length > 0 || !tree) {
    const error = errors[0];
    const where = error ? lineCol(text, error.offset) : '1:1';
    const what = error ? printParseErrorCode(error.error) : 'empty';
    throw new TollgateError('config', `${label}:${where} not valid JSON (${what}); fix the file, then rerun`);
  }
  const value = getNodeValue(tree) as unknown;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new TollgateError('config', `${label}: expected a JSON object at the top level`);
  }
  return value as Record<string, unknown>;
}

function lineCol(text: string, offset: number): string {
  const before = text.slice(0, offset).split('\n');
  return `${before.length}:${before.at(-1)!.length + 1}`;
}

/** The file's own indentation and line ending, so our edit looks like the rest of it. */
function formattingOf(text: string): FormattingOptions {
  const indent = /\n([ \t]+)["}\]]/.exec(text)?.[1];
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  if (indent?.startsWith('\t')) return { insertSpaces: false, tabSize: 1, eol };
  return { insertSpaces: true, tabSize: indent ? indent.length : 2, eol };
}

/**
 * One edit that changes nothing but its own entry. jsonc-parser's formatter re-indents whole lines around an edit
 * (the neighbour's line too), so edits are made raw and only the lines we insert are formatted: an insertion after
 * a sibling is moved onto its own line at the right depth, then formatted from there. Removal is raw, so removing
 * what we inserted gives back the original bytes.
 */
function edit(text: string, path: JsonPath, value: unknown, isArrayInsertion = false): string {
  if (text.trim() === '') {
    const created = applyEdits('{}', modify('{}', path, value, { formattingOptions: formattingOf('') }));
    return `${created}\n`;
  }
  const formatting = formattingOf(text);
  if (value === undefined && typeof path.at(-1) === 'number') {
    const removed = removeLastElement(text, path);
    if (removed !== null) return removed;
  }
  const raw = modify(text, path, value, { isArrayInsertion });
  let next = text;
  for (const change of [...raw].sort((a, b) => b.offset - a.offset)) {
    const insertsAfterSibling = value !== undefined && change.length === 0 && change.content.startsWith(',');
    if (!insertsAfterSibling) {
      next = applyEdits(next, [change]);
      continue;
    }
    const unit = formatting.insertSpaces ? ' '.repeat(formatting.tabSize ?? 2) : '\t';
    const depth = insertionDepth(text, path);
    const body = `${formatting.eol}${unit.repeat(depth)}${change.content.slice(1).trimStart()}`;
    const inserted = `${next.slice(0, change.offset)},${body}${next.slice(change.offset)}`;
    const bodyStart = change.offset + 1 + (formatting.eol ?? '\n').length;
    const formatEdits = format(
      inserted,
      { offset: bodyStart, length: body.length - (formatting.eol ?? '\n').length },
      formatting,
    );
    next = applyEdits(inserted, formatEdits);
  }
  return next.endsWith('\n') ? next : `${next}\n`;
}

/**
 * jsonc-parser removes a last array element up to one character before the `]`, eating the line break there; remove
 * exactly `,<element>` instead, the mirror of our insertion.
 */
function removeLastElement(text: string, path: JsonPath): string | null {
  const tree = parseTree(text, [], { allowTrailingComma: true });
  const node = tree ? findNodeAtLocation(tree, path) : undefined;
  const siblings = node?.parent?.children;
  if (!node || !siblings || siblings.length < 2 || siblings.at(-1) !== node) return null;
  const previous = siblings.at(-2)!;
  const start = previous.offset + previous.length;
  return text.slice(0, start) + text.slice(node.offset + node.length);
}

/** How deep the inserted member sits: one below the deepest container of `path` that exists. */
function insertionDepth(text: string, path: JsonPath): number {
  const root = readJsonText(text, 'config');
  let depth = 0;
  while (depth < path.length - 1 && valueAt(root, path.slice(0, depth + 1)) !== undefined) depth++;
  return depth + 1;
}

function valueAt(root: unknown, path: readonly (string | number)[]): unknown {
  let current = root;
  for (const key of path) {
    if (typeof current !== 'object' || current === null) return undefined;
    current = (current as Record<string | number, unknown>)[key];
  }
  return current;
}

/** The command a handler runs (`command`, or Copilot's `bash`). */
function handlerCommand(handler: unknown): string | null {
  if (typeof handler !== 'object' || handler === null) return null;
  const record = handler as Record<string, unknown>;
  const command = record.command ?? record.bash;
  return typeof command === 'string' ? command.trim() : null;
}

/** Where each handler of an event sits, with its command. */
function handlersOf(root: unknown, hook: Pick<HookEdit, 'eventsPath' | 'event' | 'layout'>) {
  const list = valueAt(root, [...hook.eventsPath, hook.event]);
  const found: { path: JsonPath; command: string | null; groupPath: JsonPath | null; groupSize: number }[] = [];
  if (!Array.isArray(list)) return found;
  list.forEach((entry, index) => {
    const entryPath: JsonPath = [...hook.eventsPath, hook.event, index];
    if (hook.layout === 'flat') {
      found.push({ path: entryPath, command: handlerCommand(entry), groupPath: null, groupSize: 0 });
      return;
    }
    const handlers = (entry as { hooks?: unknown })?.hooks;
    if (!Array.isArray(handlers)) return;
    handlers.forEach((handler, handlerIndex) => {
      found.push({
        path: [...entryPath, 'hooks', handlerIndex],
        command: handlerCommand(handler),
        groupPath: entryPath,
        groupSize: handlers.length,
      });
    });
  });
  return found;
}

export function hasHook(text: string, hook: HookEdit, label: string): boolean {
  const command = handlerCommand(hook.handler);
  return handlersOf(readJsonText(text, label), hook).some((found) => found.command === command);
}

/** The handler fields that hold a hook's time limit (`timeoutSec`: Copilot CLI's name for it). */
const TIMEOUT_KEYS = ['timeout', 'timeoutSec'];

/**
 * Raises the time limit of our handler (the one with this edit's command) to the edit's where it is lower or unset,
 * since the stop hook answers just inside the limit it was installed with: a lower one would kill it first, and an
 * agent lets the stop through when its hook is killed. Null when there is nothing to raise.
 */
export function raiseHookTimeout(text: string, hook: HookEdit, label: string): { text: string; value: number } | null {
  const key = TIMEOUT_KEYS.find((candidate) => typeof hook.handler[candidate] === 'number');
  if (!key) return null;
  const wanted = hook.handler[key] as number;
  const root = readJsonText(text, label);
  const command = handlerCommand(hook.handler);
  const found = handlersOf(root, hook).find((candidate) => candidate.command === command);
  if (!found) return null;
  const handler = valueAt(root, found.path) as Record<string, unknown>;
  const current = TIMEOUT_KEYS.map((candidate) => handler[candidate]).find((value) => typeof value === 'number');
  if (typeof current === 'number' && current >= wanted) return null;
  const existingKey = TIMEOUT_KEYS.find((candidate) => typeof handler[candidate] === 'number') ?? key;
  return { text: edit(text, [...found.path, existingKey], wanted), value: wanted };
}

export interface JsonChange {
  text: string;
  /** Objects and arrays that did not exist before, outermost first: removed again on uninstall if left empty. */
  createdPaths: string[][];
}

/** Adds the handler unless one with the same command is there already (then null). */
export function addHook(text: string, hook: HookEdit, label: string): JsonChange | null {
  const root = readJsonText(text, label);
  if (hasHook(text, hook, label)) return null;
  const createdPaths: string[][] = [];
  let next = text;
  if (text.trim() === '' && hook.fileDefaults) {
    for (const [key, value] of Object.entries(hook.fileDefaults)) next = edit(next, [key], value);
  }
  const eventPath = [...hook.eventsPath, hook.event];
  createdPaths.push(...missingPrefixes(root, eventPath));
  const list = valueAt(root, eventPath);
  const entry = hook.layout === 'nested' ? { hooks: [hook.handler] } : hook.handler;
  next = Array.isArray(list) ? edit(next, [...eventPath, list.length], entry, true) : edit(next, eventPath, [entry]);
  return { text: next, createdPaths };
}

/** Removes the handler with this command (and its group when it was alone there); null when it is not there. */
export function removeHook(
  text: string,
  hook: Pick<HookEdit, 'eventsPath' | 'event' | 'layout'>,
  command: string,
  createdPaths: readonly string[][],
  label: string,
): string | null {
  const found = handlersOf(readJsonText(text, label), hook).find((candidate) => candidate.command === command);
  if (!found) return null;
  const target = found.groupPath && found.groupSize === 1 ? found.groupPath : found.path;
  return pruneCreated(edit(text, target, undefined), createdPaths, label);
}

export function addJsonEntry(text: string, path: string[], value: unknown, label: string): JsonChange | null {
  const root = readJsonText(text, label);
  if (valueAt(root, path) !== undefined) return null;
  return { text: edit(text, path, value), createdPaths: missingPrefixes(root, path.slice(0, -1)) };
}

export function jsonEntry(text: string, path: string[], label: string): unknown {
  return valueAt(readJsonText(text, label), path);
}

export function removeJsonEntry(
  text: string,
  path: string[],
  createdPaths: readonly string[][],
  label: string,
): string | null {
  if (valueAt(readJsonText(text, label), path) === undefined) return null;
  return pruneCreated(edit(text, path, undefined), createdPaths, label);
}

/** Removes the containers we created, innermost first, when nothing else lives in them now. */
function pruneCreated(text: string, createdPaths: readonly string[][], label: string): string {
  let next = text;
  for (const path of [...createdPaths].sort((a, b) => b.length - a.length)) {
    const value = valueAt(readJsonText(next, label), path);
    const empty = Array.isArray(value) ? value.length === 0 : isEmptyObject(value);
    if (empty) next = edit(next, path, undefined);
  }
  return next;
}

/** The containers along `path` (itself included) that do not exist yet, outermost first. */
function missingPrefixes(root: unknown, path: readonly string[]): string[][] {
  const missing: string[][] = [];
  for (let depth = 1; depth <= path.length; depth++) {
    if (valueAt(root, path.slice(0, depth)) === undefined) missing.push(path.slice(0, depth));
  }
  return missing;
}

function isEmptyObject(value: unknown): boolean {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && Object.keys(value).length === 0;
}

/** Group and handler index of the handler with this command (Codex names hooks by them), or null. */
export function hookPosition(
  text: string,
  hook: HookEdit,
  command: string,
  label: string,
): { group: number; handler: number } | null {
  const found = handlersOf(readJsonText(text, label), hook).find((candidate) => candidate.command === command);
  if (!found) return null;
  const indexes = found.path.filter((part): part is number => typeof part === 'number');
  return { group: indexes[0] ?? 0, handler: indexes[1] ?? 0 };
}
