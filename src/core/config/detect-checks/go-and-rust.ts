import type { EcosystemFindings, ProjectFiles } from './candidate.js';
import { parseTomlFile } from './candidate.js';

/** Go: a `go.mod` at the root means `go test ./...` and `go vet ./...` cover the module. */
export function goChecks(files: ProjectFiles): EcosystemFindings {
  if (!files.has('go.mod')) return { candidates: [], notes: [] };
  return {
    candidates: [
      { kind: 'test', name: 'test', run: 'go test ./...', source: 'go.mod' },
      { kind: 'lint', name: 'vet', run: 'go vet ./...', source: 'go.mod' },
    ],
    notes: [],
  };
}

/** Rust: a `Cargo.toml` (package or workspace) means `cargo test` and `cargo clippy`. */
export function rustChecks(files: ProjectFiles): EcosystemFindings {
  const text = files.get('Cargo.toml');
  if (text === undefined) return { candidates: [], notes: [] };
  const parsed = parseTomlFile(text, 'Cargo.toml');
  if ('note' in parsed) return { candidates: [], notes: [parsed.note] };
  return {
    candidates: [
      { kind: 'test', name: 'test', run: 'cargo test', source: 'Cargo.toml' },
      { kind: 'lint', name: 'clippy', run: 'cargo clippy', source: 'Cargo.toml' },
    ],
    notes: [],
  };
}
