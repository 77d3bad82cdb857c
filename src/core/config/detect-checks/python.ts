import type { CheckCandidate, CheckKind, EcosystemFindings, ProjectFiles } from './candidate.js';
import { parseTomlFile, tableAt } from './candidate.js';

/**
 * Python: pytest, ruff and mypy where the project configures them (`pyproject.toml`'s `[tool.*]` tables or their own
 * files), run through the project's runner (Poetry, uv, PDM) when it has one; then tox environments and nox sessions
 * for what those did not cover (a tool called directly starts faster than one in a fresh tox or nox environment).
 */
export function pythonChecks(files: ProjectFiles): EcosystemFindings {
  const notes: string[] = [];
  let pyproject: Record<string, unknown> | undefined;
  const pyprojectText = files.get('pyproject.toml');
  if (pyprojectText !== undefined) {
    const parsed = parseTomlFile(pyprojectText, 'pyproject.toml');
    if ('note' in parsed) notes.push(parsed.note);
    else pyproject = parsed.table;
  }
  const runner = runnerOf(files, pyproject);
  const prefix = runner ? `${runner.command} ` : '';
  const via = runner ? `; ${runner.why}` : '';
  const candidates: CheckCandidate[] = [];
  const pytest = pytestSource(files, pyproject);
  if (pytest) candidates.push({ kind: 'test', name: 'test', run: `${prefix}pytest`, source: `${pytest}${via}` });
  const ruff = ruffSource(files, pyproject);
  if (ruff) candidates.push({ kind: 'lint', name: 'lint', run: `${prefix}ruff check .`, source: `${ruff}${via}` });
  const mypy = mypySource(files, pyproject);
  if (mypy) {
    // Without `files` in its config, mypy needs to be told what to check.
    const run = `${prefix}mypy${mypy.hasFiles ? '' : ' .'}`;
    candidates.push({ kind: 'typecheck', name: 'typecheck', run, source: `${mypy.source}${via}` });
  }
  candidates.push(...toxCandidates(files.get('tox.ini')), ...noxCandidates(files.get('noxfile.py')));
  return { candidates, notes };
}

function runnerOf(
  files: ProjectFiles,
  pyproject: Record<string, unknown> | undefined,
): { command: string; why: string } | undefined {
  if (tableAt(pyproject, 'tool', 'poetry')) return { command: 'poetry run', why: 'Poetry from [tool.poetry]' };
  if (files.has('uv.lock')) return { command: 'uv run', why: 'uv from uv.lock' };
  if (files.has('pdm.lock')) return { command: 'pdm run', why: 'PDM from pdm.lock' };
  return undefined;
}

function pytestSource(files: ProjectFiles, pyproject: Record<string, unknown> | undefined): string | undefined {
  if (tableAt(pyproject, 'tool', 'pytest')) return 'pyproject.toml [tool.pytest]';
  if (files.has('pytest.ini')) return 'pytest.ini';
  if (pyproject && dependsOn(pyproject, 'pytest')) return 'pyproject.toml lists pytest as a dependency';
  return undefined;
}

function ruffSource(files: ProjectFiles, pyproject: Record<string, unknown> | undefined): string | undefined {
  if (tableAt(pyproject, 'tool', 'ruff')) return 'pyproject.toml [tool.ruff]';
  return ['ruff.toml', '.ruff.toml'].find((name) => files.has(name));
}

function mypySource(
  files: ProjectFiles,
  pyproject: Record<string, unknown> | undefined,
): { source: string; hasFiles: boolean } | undefined {
  const table = tableAt(pyproject, 'tool', 'mypy');
  if (table) return { source: 'pyproject.toml [tool.mypy]', hasFiles: table.files !== undefined };
  const ini = files.get('mypy.ini');
  if (ini !== undefined) return { source: 'mypy.ini', hasFiles: /^\s*files\s*=/m.test(ini) };
  return undefined;
}

/** A requirement string naming this package (`pytest>=8`, `pytest[extra]`), not one that starts with its name. */
function namesPackage(requirement: unknown, name: string): boolean {
  return typeof requirement === 'string' && new RegExp(`^\\s*${name}(?![\\w.-])`, 'i').test(requirement);
}

/** PEP 621 optional dependencies, PEP 735 dependency groups, Poetry's groups and dev-dependencies. */
function dependsOn(pyproject: Record<string, unknown>, name: string): boolean {
  const lists = [
    ...Object.values(tableAt(pyproject, 'project', 'optional-dependencies') ?? {}),
    ...Object.values(tableAt(pyproject, 'dependency-groups') ?? {}),
  ];
  if (lists.some((list) => Array.isArray(list) && list.some((entry) => namesPackage(entry, name)))) return true;
  const poetry = tableAt(pyproject, 'tool', 'poetry');
  const tables = [
    tableAt(poetry, 'dev-dependencies'),
    ...Object.keys(tableAt(poetry, 'group') ?? {}).map((group) => tableAt(poetry, 'group', group, 'dependencies')),
  ];
  return tables.some((table) => table !== undefined && Object.keys(table).some((key) => key.toLowerCase() === name));
}

/** Environment or session names, by what they run. */
function kindOfName(name: string): CheckKind | undefined {
  if (/^(py\d*|test|tests|unit|pytest)$/i.test(name)) return 'test';
  if (/^(lint|ruff|flake8|pylint|style|pep8)$/i.test(name)) return 'lint';
  if (/^(type|types|typing|mypy|typecheck|pyright)$/i.test(name)) return 'typecheck';
  return undefined;
}

/** tox environments: `envlist` in `[tox]` and `[testenv:NAME]` sections (the INI form; a malformed line is ignored). */
function toxCandidates(text: string | undefined): CheckCandidate[] {
  if (text === undefined) return [];
  const names = new Set<string>();
  let section = '';
  let inEnvList = false;
  for (const line of text.split(/\r?\n/)) {
    const header = /^\s*\[([^\]]+)\]/.exec(line);
    if (header) {
      section = header[1]!.trim();
      inEnvList = false;
      const env = /^testenv:(.+)$/.exec(section)?.[1]?.trim();
      if (env) names.add(env);
      continue;
    }
    if (section !== 'tox') continue;
    const entry = /^\s*env_?list\s*=(.*)$/.exec(line);
    if (entry) inEnvList = true;
    else if (!/^\s+\S/.test(line)) inEnvList = false;
    if (inEnvList) for (const name of (entry ? entry[1]! : line).split(/[\s,]+/)) if (name) names.add(name);
  }
  return fromNamed([...names], (name) => (/^py\d*$/.test(name) ? 'tox -e py' : `tox -e ${name}`), 'tox.ini');
}

/** nox sessions: functions under `@nox.session` (or `@session`), named by `name=` when given. */
function noxCandidates(text: string | undefined): CheckCandidate[] {
  if (text === undefined) return [];
  const sessions: string[] = [];
  const decorated = /@(?:nox\.)?session\b(\([^)]*\))?\s*\n(?:\s*@[^\n]*\n)*\s*def\s+(\w+)/g;
  for (const match of text.matchAll(decorated)) {
    const named = /\bname\s*=\s*["']([\w.-]+)["']/.exec(match[1] ?? '')?.[1];
    sessions.push(named ?? match[2]!);
  }
  return fromNamed(sessions, (name) => `nox -s ${name}`, 'noxfile.py');
}

function fromNamed(names: readonly string[], command: (name: string) => string, file: string): CheckCandidate[] {
  const candidates: CheckCandidate[] = [];
  for (const name of names) {
    const kind = kindOfName(name);
    if (!kind || !/^[\w.-]+$/.test(name) || candidates.some((candidate) => candidate.kind === kind)) continue;
    const what = file === 'tox.ini' ? `environment ${name}` : `session ${name}`;
    candidates.push({ kind, name: kind, run: command(name), source: `${file} ${what}` });
  }
  return candidates;
}
