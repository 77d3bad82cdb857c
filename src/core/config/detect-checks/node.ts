import type { CheckCandidate, CheckKind, EcosystemFindings, ProjectFiles } from './candidate.js';
import { shortReason, tableAt } from './candidate.js';

/** Lockfiles in the order they decide the package manager; none (or npm's own) means npm. */
const LOCKFILES = [
  { file: 'pnpm-lock.yaml', manager: 'pnpm' },
  { file: 'yarn.lock', manager: 'yarn' },
  { file: 'bun.lock', manager: 'bun' },
  { file: 'bun.lockb', manager: 'bun' },
  { file: 'package-lock.json', manager: 'npm' },
  { file: 'npm-shrinkwrap.json', manager: 'npm' },
] as const;
type Manager = (typeof LOCKFILES)[number]['manager'];

/** The scripts init looks for, by kind; the first present of each kind is taken. */
const SCRIPTS: readonly { kind: CheckKind; names: readonly string[] }[] = [
  { kind: 'test', names: ['test'] },
  { kind: 'lint', names: ['lint'] },
  { kind: 'typecheck', names: ['typecheck', 'type-check', 'tsc'] },
  { kind: 'check', names: ['check'] },
];

/** What `npm init` writes: a test script that only fails. */
const NPM_INIT_TEST = /no test specified/;

/** `package.json` scripts, run with the package manager the lockfile names. */
export function nodeChecks(files: ProjectFiles): EcosystemFindings {
  const text = files.get('package.json');
  if (text === undefined) return { candidates: [], notes: [] };
  let scripts: Record<string, unknown> | undefined;
  try {
    scripts = tableAt(JSON.parse(text), 'scripts');
  } catch (error) {
    return { candidates: [], notes: [`package.json skipped: not valid JSON (${shortReason(error)})`] };
  }
  const lock = LOCKFILES.find((entry) => files.has(entry.file));
  const manager: Manager = lock?.manager ?? 'npm';
  const why = lock ? `${manager} from ${lock.file}` : 'npm: no lockfile';
  const candidates: CheckCandidate[] = [];
  const notes: string[] = [];
  for (const { kind, names } of SCRIPTS) {
    const script = names.find((name) => typeof scripts?.[name] === 'string' && (scripts[name] as string).trim() !== '');
    if (script === undefined) continue;
    if (script === 'test' && NPM_INIT_TEST.test(scripts![script] as string)) {
      notes.push('package.json scripts.test skipped: it is npm init\'s placeholder ("no test specified")');
      continue;
    }
    const name = kind === 'check' || kind === 'typecheck' ? kind : script;
    candidates.push({ kind, name, run: runScript(manager, script), source: `package.json scripts.${script}; ${why}` });
  }
  return { candidates, notes };
}

function runScript(manager: Manager, script: string): string {
  switch (manager) {
    case 'npm':
    case 'pnpm':
      return script === 'test' ? `${manager} test` : `${manager} run ${script}`;
    case 'yarn':
      return `yarn ${script}`;
    case 'bun':
      // `bun test` is bun's own test runner, not the package's script.
      return `bun run ${script}`;
  }
}
