import {
  type Document,
  isAlias,
  isMap,
  isPair,
  isScalar,
  isSeq,
  LineCounter,
  type Node,
  parseDocument,
  visit,
  type YAMLError,
} from 'yaml';
import { compareText } from '../text-order.js';
import type { ConfigPath } from './schema-walk.js';

/** A place in the config file, 1-based like editors show it. */
export interface Position {
  line: number;
  col: number;
}

/** One problem with the config file, before the file name is put in front of it. */
export interface ConfigProblem extends Position {
  message: string;
}

export interface YamlSource {
  /** The document as plain data (null for an empty file); meaningless when `problems` is not empty. */
  value: unknown;
  /** Syntax errors and unsupported YAML (unknown tags, complex keys, unresolved aliases), in file order. */
  problems: ConfigProblem[];
  /** Where the value at `path` (or, with `'key'`, its key) is written; the nearest enclosing node when it is not. */
  locate(path: ConfigPath, target?: 'key' | 'value'): Position;
}

const FILE_START: Position = { line: 1, col: 1 };

/**
 * Parses YAML keeping every node's position, so a problem found later by the schema can still be reported at its
 * `line:col`. Never throws on bad input: everything wrong is returned in `problems`.
 */
export function parseYamlSource(text: string): YamlSource {
  const lineCounter = new LineCounter();
  // `merge` lets users share settings between checks with anchors (`<<: *defaults`); `logLevel: 'error'` keeps the
  // yaml package from printing warnings itself: we report them as problems instead.
  const doc = parseDocument(text, { lineCounter, prettyErrors: false, merge: true, logLevel: 'error' });
  const positionOf = (offset: number): Position => lineCounter.linePos(offset);
  const nodePosition = (node: Node | null | undefined): Position =>
    node?.range ? positionOf(node.range[0]) : FILE_START;

  const problems: ConfigProblem[] = [
    ...doc.errors.map((error) => yamlProblem(error, text, positionOf)),
    ...doc.warnings.map((warning) => yamlProblem(warning, text, positionOf)),
    ...unsupportedNodes(doc, nodePosition),
  ];

  let value: unknown = null;
  if (problems.length === 0) {
    try {
      value = doc.toJS({ maxAliasCount: 1000 });
    } catch (error) {
      // The alias-expansion guard (a "billion laughs" file) is the one failure left after the checks above.
      problems.push({ ...FILE_START, message: `YAML: ${error instanceof Error ? error.message : String(error)}` });
    }
  }

  const locate = (path: ConfigPath, target: 'key' | 'value' = 'value'): Position => {
    let node: unknown = doc.contents;
    for (const [index, segment] of path.entries()) {
      if (isAlias(node)) node = node.resolve(doc as Document);
      if (isMap(node)) {
        const pair = node.items.find((item) => isScalar(item.key) && String(item.key.value) === String(segment));
        if (!pair) return nodePosition(node);
        const isLast = index === path.length - 1;
        if ((isLast && target === 'key') || !pair.value) return nodePosition(pair.key as Node);
        node = pair.value;
      } else if (isSeq(node) && typeof segment === 'number' && node.items[segment]) {
        node = node.items[segment];
      } else return nodePosition(node as Node | null);
    }
    return nodePosition(node as Node | null);
  };

  return { value, problems: problems.sort(byPosition), locate };
}

export function byPosition(a: ConfigProblem, b: ConfigProblem): number {
  return a.line - b.line || a.col - b.col || compareText(a.message, b.message);
}

function yamlProblem(error: YAMLError, text: string, positionOf: (offset: number) => Position): ConfigProblem {
  const position = positionOf(error.pos[0]);
  switch (error.code) {
    case 'DUPLICATE_KEY':
      return { ...position, message: `duplicate key ${JSON.stringify(keyAt(text, error.pos[0]))}` };
    case 'MULTIPLE_DOCS':
      return { ...position, message: 'YAML: a second document ("---") is not allowed; keep the whole config in one' };
    case 'TAG_RESOLVE_FAILED':
      return { ...position, message: `YAML: ${lowerFirst(error.message)}; tags are not supported in the config` };
    default:
      return { ...position, message: `YAML: ${lowerFirst(error.message)}` };
  }
}

/** What the YAML spec allows but a config cannot mean: keys that are not names, and aliases to nothing. */
function unsupportedNodes(doc: Document, nodePosition: (node: Node | null | undefined) => Position): ConfigProblem[] {
  const problems: ConfigProblem[] = [];
  visit(doc, {
    Pair(_key, pair) {
      if (!isPair(pair)) return;
      if (!isScalar(pair.key) || pair.key.value === null || typeof pair.key.value === 'object') {
        const where =
          isScalar(pair.key) || isMap(pair.key) || isSeq(pair.key) ? (pair.key as Node) : (pair.value as Node);
        problems.push({
          ...nodePosition(where),
          message: 'YAML: a key must be a plain name, not a list, mapping or empty',
        });
      }
    },
    Alias(_key, alias) {
      if (!alias.resolve(doc)) {
        problems.push({
          ...nodePosition(alias),
          message: `YAML: alias *${alias.source} has no anchor &${alias.source} before it`,
        });
      }
    },
  });
  return problems;
}

/** The key written at `offset` (the error's range covers only its first character). */
function keyAt(text: string, offset: number): string {
  const match = /^(?:"((?:[^"\\\n]|\\.)*)"|'([^'\n]*)'|([^:\n,{}[\]]*?))\s*:/.exec(text.slice(offset));
  return match ? (match[1] ?? match[2] ?? match[3] ?? '').trim() : text.slice(offset, offset + 1);
}

function lowerFirst(text: string): string {
  return text.charAt(0).toLowerCase() + text.slice(1);
}
