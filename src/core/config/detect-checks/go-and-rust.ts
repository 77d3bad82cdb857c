import { parse as parseToml } from 'smol-toml';
import type { EcosystemFindings, ProjectFiles } from './candidate.js';
import { shortReason } from './candidate.js';

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
  try {
    parseToml(text);
  } catch (error) {
    return { candidates: [], notes: [`Cargo.toml skipped: not valid TOML (${shortReason(error)})`] };
  }
  return {
    candidates: [
      { kind: 'test', name: 'test', run: 'cargo test', source: 'Cargo.toml' },
      { kind: 'lint', name: 'clippy', run: 'cargo clippy', source: 'Cargo.toml' },
    ],
    notes: [],
  };
}
