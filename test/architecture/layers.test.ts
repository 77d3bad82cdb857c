import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';

/**
 * The house rule: imports only point down the layers, and no two modules import each other (directly or in a ring).
 *   cli → integrations, alerts → validators → agents, report → core
 * A new upward import or cycle fails here with the file and the import that breaks the rule.
 */
const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const SRC = join(ROOT, 'src');

const LAYERS: Record<string, number> = {
  cli: 4,
  integrations: 3,
  alerts: 3,
  validators: 2,
  agents: 1,
  report: 1,
  // The secret engine (rules, scanner, masking): core's redaction and every output path use it.
  secrets: 0,
  core: 0,
};

/**
 * Core reads the names other layers own (validators, agent CLIs, report formats) from their registry modules, and
 * only this way: from one module, by a dynamic import made when a config is read. Every other upward import fails.
 */
const REGISTRY_LOOKUPS = new Set([
  'src/core/config/registries.ts -> src/validators/index.ts',
  'src/core/config/registries.ts -> src/agents/index.ts',
  'src/core/config/registries.ts -> src/report/index.ts',
]);

/**
 * Folders inside a layer that depend one way only: the first may import the second, never the reverse. The policy
 * reads and writes its files through state (atomic writes, signed files); state reads a policy file through the
 * `PolicyReader` it declares, so the two never import each other.
 */
const ONE_WAY: readonly (readonly [string, string])[] = [['src/core/policy/', 'src/core/state/']];

/** Cycles that predate this test, by their sorted member list. */
const KNOWN_CYCLES = new Set<string>([]);

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

const IMPORT = /^\s*(?:import|export)\s[^;]*?from\s+'(\.{1,2}\/[^']+)'/gm;
const DYNAMIC_IMPORT = /\bimport\(\s*'(\.{1,2}\/[^']+)'\s*\)/g;

interface ImportEdge {
  target: string;
  dynamic: boolean;
}

function importsOf(file: string): ImportEdge[] {
  const text = readFileSync(file, 'utf8');
  const resolve = (spec: string) => normalize(join(dirname(file), spec)).replace(/\.js$/, '.ts');
  return [
    ...[...text.matchAll(IMPORT)].map((match) => ({ target: resolve(match[1]!), dynamic: false })),
    ...[...text.matchAll(DYNAMIC_IMPORT)].map((match) => ({ target: resolve(match[1]!), dynamic: true })),
  ];
}

const rel = (path: string) => relative(ROOT, path).split('\\').join('/');
const layerOf = (path: string) => LAYERS[rel(path).split('/')[1] ?? ''];

const files = sourceFiles(SRC);
const edges = new Map(files.map((file) => [file, importsOf(file).filter((edge) => edge.target.startsWith(SRC))]));
const graph = new Map([...edges].map(([file, imports]) => [file, imports.map((edge) => edge.target)]));

describe('architecture', () => {
  test('every folder under src/ has a layer', () => {
    const folders = readdirSync(SRC, { withFileTypes: true }).filter((entry) => entry.isDirectory());
    expect(folders.map((entry) => entry.name).filter((name) => LAYERS[name] === undefined)).toEqual([]);
  });

  test('imports only point down the layers', () => {
    const upward: string[] = [];
    for (const [file, imports] of edges) {
      for (const { target, dynamic } of imports) {
        const from = layerOf(file);
        const to = layerOf(target);
        const edge = `${rel(file)} -> ${rel(target)}`;
        if (from !== undefined && to !== undefined && to > from && !(dynamic && REGISTRY_LOOKUPS.has(edge))) {
          upward.push(`${edge}${dynamic ? ' (dynamic)' : ''}`);
        }
      }
    }
    expect(upward).toEqual([]);
  });

  test('one-way folders are imported one way only', () => {
    const backward = [...edges].flatMap(([file, imports]) =>
      imports
        .map((edge) => `${rel(file)} -> ${rel(edge.target)}`)
        .filter((edge) => ONE_WAY.some(([upper, lower]) => edge.startsWith(lower) && edge.includes(` -> ${upper}`))),
    );
    expect(backward).toEqual([]);
  });

  test('the registry lookups exist and are dynamic', () => {
    const lookups = [...edges].flatMap(([file, imports]) =>
      imports.filter((edge) => edge.dynamic).map((edge) => `${rel(file)} -> ${rel(edge.target)}`),
    );
    expect([...REGISTRY_LOOKUPS].filter((edge) => !lookups.includes(edge))).toEqual([]);
  });

  test('no module imports itself through others (no cycles)', () => {
    const cycles = stronglyConnected(graph)
      .filter((component) => component.length > 1)
      .map((component) => component.map(rel).sort().join(', '));
    expect(cycles.filter((cycle) => !KNOWN_CYCLES.has(cycle))).toEqual([]);
    expect([...KNOWN_CYCLES].filter((cycle) => !cycles.includes(cycle))).toEqual([]);
  });
});

/** Tarjan's strongly connected components. */
function stronglyConnected(edges: ReadonlyMap<string, readonly string[]>): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  const visit = (node: string): void => {
    index.set(node, counter);
    low.set(node, counter);
    counter += 1;
    stack.push(node);
    onStack.add(node);
    for (const next of edges.get(node) ?? []) {
      if (!edges.has(next)) continue;
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) {
        low.set(node, Math.min(low.get(node)!, index.get(next)!));
      }
    }
    if (low.get(node) === index.get(node)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      components.push(component);
    }
  };
  for (const node of edges.keys()) if (!index.has(node)) visit(node);
  return components;
}
