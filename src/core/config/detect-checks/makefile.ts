import type { CheckCandidate, CheckKind, EcosystemFindings, ProjectFiles } from './candidate.js';

/** The names make looks for, in its own order. */
const MAKEFILES = ['GNUmakefile', 'makefile', 'Makefile'] as const;

/** Targets init proposes; `check` is GNU's name for the test suite, so it stands in for `test` only when that is absent. */
const TARGETS: readonly { kind: CheckKind; names: readonly string[] }[] = [
  { kind: 'test', names: ['test', 'check'] },
  { kind: 'lint', names: ['lint'] },
  { kind: 'typecheck', names: ['typecheck'] },
];

/** `make test`, `make lint`…: the targets a Makefile defines (rule lines `name:`, not `name :=` assignments). */
export function makefileChecks(files: ProjectFiles): EcosystemFindings {
  const file = MAKEFILES.find((name) => files.has(name));
  if (file === undefined) return { candidates: [], notes: [] };
  const targets = new Set<string>();
  for (const line of files.get(file)!.split(/\r?\n/)) {
    const rule = /^([A-Za-z0-9_.\- ]+?)\s*::?(?![=])/.exec(line);
    if (rule) for (const name of rule[1]!.split(/\s+/)) targets.add(name);
  }
  const candidates: CheckCandidate[] = [];
  for (const { kind, names } of TARGETS) {
    const target = names.find((name) => targets.has(name));
    if (target) candidates.push({ kind, name: kind, run: `make ${target}`, source: `${file} target ${target}` });
  }
  return { candidates, notes: [] };
}
