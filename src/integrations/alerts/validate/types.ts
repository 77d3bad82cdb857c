import type { ProbeResult } from '../../../agents/health.js';
import type { AgentName, RegisteredAdapter } from '../../../agents/index.js';
import type { ReviewerPool } from '../../../agents/reviewer-pool.js';
import type { AgentSettings } from '../../../agents/types.js';
import type { TollgateConfig } from '../../../core/config/schema.js';
import type { AgentDefinition, AgentRole } from '../agent-definitions.js';
import type { AlertWriter } from '../output-writer.js';
import type { AlertProgress, AlertProgressMode } from '../progress.js';
import type { Skill } from '../skills.js';
import type { AlertSecrets, AlertSubject } from '../types.js';
import type { VerifyAlertInput } from './verify-alert-secret.js';

export type AlertTarget =
  | { kind: 'github'; owner: string; repo: string; alertId: string }
  | { kind: 'local'; fingerprint: string };

export interface ValidateAlertOptions {
  target: AlertTarget;
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** Overrides `alerts.analyses`. */
  analyses?: number;
  /** Overrides `alerts.agents`. */
  agents?: AgentName[];
  /** Overrides `alerts.timeouts.analysis` (ms). */
  timeoutMs?: number;
  /** Root of the output tree; default `<repo>/.tollgate/alerts` inside a repository, else `./analysis`. */
  outDir?: string;
  json: boolean;
  showUsage: boolean;
  /** Ask the secret's provider whether it is live and give the answer to the analyses (also config `secrets.verify`). */
  verify?: boolean;
  /** Tests only: fake providers for `verify`. Never set from the command line or config. */
  verifyTransport?: VerifyAlertInput['transport'];
  /** Probes each agent CLI (installed, logged in); a sweep passes one that remembers, so 2,000 alerts probe once. */
  probe?: (adapter: RegisteredAdapter) => Promise<ProbeResult>;
  /** Progress on stderr: `lines` (default), `live` (a terminal: a line per task redrawn in place), `off`. */
  progress?: AlertProgressMode;
  /** Terminal width for `live` progress. */
  columns?: number;
  stdout(text: string): void;
  stderr(text: string): void;
}

/** Everything the stages after gathering share: the alert, its output folder, the agents and the repository copy. */
export interface AlertSession {
  options: ValidateAlertOptions;
  progress: AlertProgress;
  config: TollgateConfig['alerts'];
  repoRoot: string | null;
  analyses: number;
  subject: AlertSubject;
  secrets: AlertSecrets;
  redact: (text: string) => string;
  alertDir: string;
  writer: AlertWriter;
  pool: ReviewerPool;
  /** An adapter's settings for one role: the role's definition over `alerts.adapters`, over the defaults. */
  settingsOf(adapter: RegisteredAdapter, role: AgentRole): AgentSettings;
  /** What each role is told (`agents/<role>.md`, or the repository's `.tollgate/agents/<role>.md`). */
  definitions: Record<AgentRole, AgentDefinition>;
  /** The agents' environment: tollgate's GitHub credentials removed. */
  agentEnv: NodeJS.ProcessEnv;
  /** Marks an adapter that hit its usage limit, so later runs skip it while it cools down. */
  onUsageLimit(slot: { adapter: RegisteredAdapter; status: string; message?: string }): Promise<void>;
  cloneUrl: string;
  gitOptions: { env: NodeJS.ProcessEnv; redact: (text: string) => string; timeoutMs: number };
  /** Commits the alert names, fetched into every copy. */
  commits: string[];
  /** The full-history clone every analysis copies, when it succeeded. */
  sharedRepo: string | null;
  skills: { analysis: Skill[]; challenger: Skill[]; judge: Skill[] };
  reportTemplate: string;
  /** Things that went wrong without stopping the run, for the summary. */
  notes: string[];
}
