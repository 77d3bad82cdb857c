/** The vocabulary of validate-alert, shared by the stages, the evals, the writer and the CLI. */

export const VERDICTS = ['TRUE_POSITIVE', 'FALSE_POSITIVE', 'INCONCLUSIVE'] as const;
export type Verdict = (typeof VERDICTS)[number];

export const CHALLENGE_VERDICTS = ['CONFIRMED', 'REFUTED', 'INSUFFICIENT_EVIDENCE'] as const;
export type ChallengeVerdict = (typeof CHALLENGE_VERDICTS)[number];

export const RISK_LEVELS = ['High', 'Medium', 'Low', 'None'] as const;

/** Exit codes of `tollgate validate-alert`, so CI can act on the winning verdict (2 stays "usage error"). */
export const VERDICT_EXIT_CODES: Record<Verdict, number> = {
  FALSE_POSITIVE: 0,
  TRUE_POSITIVE: 1,
  // Not 3: that means an internal error in every command.
  INCONCLUSIVE: 4,
};

/** One place of an alert's secret: a file in a commit, or a non-file place GitHub names (an issue body, a PR comment). */
export interface AlertLocation {
  type: string;
  path?: string;
  startLine?: number;
  commitSha?: string;
  blobSha?: string;
  /** For non-commit locations: the API URL of the issue, comment, … */
  url?: string;
}

/**
 * An alert as the stages see it, from GitHub or from `tollgate scan`. The raw secret is not here: it travels separately
 * (`AlertSecrets`) and only to the masking writer.
 */
export interface AlertSubject {
  source: 'github' | 'local';
  owner: string;
  repo: string;
  /** The alert number (GitHub) or the first 12 hex digits of the finding's fingerprint (local). */
  alertId: string;
  secretType: string;
  secretTypeDisplayName: string;
  /** The secret, masked (`ghp_…`). */
  maskedSecret: string;
  state?: string;
  validity?: string;
  resolution?: string | null;
  createdAt?: string;
  htmlUrl?: string;
  locations: AlertLocation[];
  /** What the secret's own provider said when tollgate asked it (`--verify`, config `secrets.verify`). */
  verification?: AlertVerification;
}

/** A provider's answer about the alert's secret; `unknown` means nothing was learned, never that it is safe. */
export interface AlertVerification {
  status: 'live' | 'invalid' | 'unknown';
  provider?: string;
  reason?: string;
}

/** Values that must never reach an output channel in clear. */
export interface AlertSecrets {
  /** The alert's own secret, when known: shown only masked. */
  alertSecret?: string;
  /** Credentials tollgate itself uses (GITHUB_TOKEN): never shown at all. */
  credentials: string[];
}
