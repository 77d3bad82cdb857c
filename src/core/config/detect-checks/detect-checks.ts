import type { CheckCandidate, EcosystemFindings, EcosystemReader, ProjectFiles } from './candidate.js';
import { shortReason } from './candidate.js';
import { goChecks, rustChecks } from './go-and-rust.js';
import { makefileChecks } from './makefile.js';
import { nodeChecks } from './node.js';
import { pythonChecks } from './python.js';
import { rubyChecks } from './ruby.js';

/** A check `tollgate init` writes into the config, and where it came from. */
export interface DetectedCheck {
  name: string;
  run: string;
  source: string;
}

export interface DetectedChecks {
  checks: DetectedCheck[];
  /** Files skipped and proposals left out, one line each. */
  notes: string[];
}

/**
 * The Makefile comes first: its targets are the project's own entry points and usually wrap the ecosystem's tools, so
 * `make test` stands for the test suite and `npm test` beside it would run the same tests twice.
 */
const READERS: readonly { ecosystem: string; read: EcosystemReader }[] = [
  { ecosystem: 'make', read: makefileChecks },
  { ecosystem: 'node', read: nodeChecks },
  { ecosystem: 'python', read: pythonChecks },
  { ecosystem: 'ruby', read: rubyChecks },
  { ecosystem: 'go', read: goChecks },
  { ecosystem: 'rust', read: rustChecks },
];

/** Every root-level file a reader looks at; the caller reads these (lockfiles only for their presence). */
export const DETECTION_FILES = {
  read: [
    'package.json',
    'pyproject.toml',
    'tox.ini',
    'noxfile.py',
    'mypy.ini',
    'Gemfile',
    'Rakefile',
    'Cargo.toml',
    'GNUmakefile',
    'makefile',
    'Makefile',
  ],
  present: [
    'pnpm-lock.yaml',
    'yarn.lock',
    'bun.lock',
    'bun.lockb',
    'package-lock.json',
    'npm-shrinkwrap.json',
    'uv.lock',
    'pdm.lock',
    'pytest.ini',
    'ruff.toml',
    '.ruff.toml',
    'go.mod',
  ],
} as const;

/**
 * The project's own test, lint and type-check commands, from the files at its root. Pure: it never runs anything and
 * never throws; a file it cannot read is skipped with a note. One check per kind per ecosystem (and none where a
 * Makefile target of that kind exists); two ecosystems at one root (a Go service and its web app) each keep theirs.
 */
export function detectChecks(files: ProjectFiles): DetectedChecks {
  const chosen: (CheckCandidate & { ecosystem: string })[] = [];
  const notes: string[] = [];
  for (const { ecosystem, read } of READERS) {
    const findings = readSafely(read, files, ecosystem);
    notes.push(...findings.notes);
    for (const candidate of findings.candidates) {
      const covered = chosen.find(
        (earlier) =>
          earlier.kind === candidate.kind && (earlier.ecosystem === ecosystem || earlier.ecosystem === 'make'),
      );
      if (covered) {
        const why = covered.ecosystem === ecosystem ? '' : ", the project's own entry point";
        notes.push(
          `${candidate.run} (${candidate.source}) not added: ${covered.name} runs ${covered.run} (${covered.source})${why}`,
        );
        continue;
      }
      chosen.push({ ...candidate, ecosystem });
    }
  }
  const taken = new Set<string>();
  const checks = chosen.map(({ name, run, source, ecosystem }) => {
    const unique = taken.has(name) ? `${name} (${ecosystem})` : name;
    taken.add(unique);
    return { name: unique, run, source };
  });
  return { checks, notes };
}

function readSafely(read: EcosystemReader, files: ProjectFiles, ecosystem: string): EcosystemFindings {
  try {
    return read(files);
  } catch (error) {
    return { candidates: [], notes: [`${ecosystem} files skipped: ${shortReason(error)}`] };
  }
}
