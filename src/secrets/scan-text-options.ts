import type { RawSecret } from './scan-results.js';

/** How `SecretScanner` scans one text (`scanText`, `startStream`). */
export interface ScanTextOptions {
  /** Repo-relative path, for syntax and lockfile decisions. */
  readonly path: string;
  /** Report only secrets that start on a line this accepts (the change set's added lines). */
  readonly acceptLine?: (line: number) => boolean;
  /**
   * Report secrets on lines with an inline allow marker too, marked `allowedBy`, so the caller decides whether the
   * marker may clear them (the gate does not let a change allow its own critical secret).
   */
  readonly keepAllowed?: boolean;
  /**
   * Return, marked `rejected` with the reason, the candidates a provider rule recognised and rejected (a wrong
   * checksum, a placeholder, a documentation host), which are otherwise dropped silently (`--report-allowed`).
   */
  readonly keepRejected?: boolean;
}

/** A text scanned as it arrives (see `SecretScanner.startStream`). */
export interface TextStream {
  /** The next piece of the text; pieces may end anywhere but inside a UTF-16 surrogate pair. */
  push(piece: string): void;
  /** The findings, as `scanText` gives them for the whole text. */
  end(): RawSecret[];
}

/** Applies to every rule (an imported gitleaks `[allowlist]`). */
export interface GlobalAllowlist {
  readonly paths?: readonly RegExp[];
  readonly regexes?: readonly RegExp[];
  readonly stopwords?: readonly string[];
}
