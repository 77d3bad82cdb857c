import { runProcess } from '../core/process.js';
import { readAgentCliVersion } from './cli-version.js';
import { cooldownEndsAt, isCoolingDown, probeAgent, readUnhealthyAdapters, type UnhealthyAdapters } from './health.js';
import { flagsMissingFromHelp } from './help-flags.js';
import type { AgentName } from './index.js';
import { agentAdapters, type RegisteredAdapter } from './index.js';
import { REVIEWER_ENV_FLAG, type RunProcessFn } from './run-agent.js';
import type { AgentSettings } from './types.js';

/** What `tollgate agents` shows for one adapter. */
export interface AgentStatus {
  name: AgentName;
  title: string;
  bin: string;
  installed: boolean;
  /** First line of `--version`, when installed. */
  version: string | null;
  /** Whether that version is one the flags were verified against; null when not installed or not on npm. */
  versionVerified: boolean | null;
  /** false for an adapter whose flags come from documentation only (Cursor). */
  verified: boolean;
  verifiedVersions: readonly string[];
  /** Why it cannot review right now (not installed, not logged in, another program), or null. */
  problem: string | null;
  health: { kind: 'healthy' } | { kind: 'cooling_down'; until: string; reason: string } | { kind: 'unknown' };
  /** Flags the adapter passes that the installed CLI's help does not list (a version the flags were not checked on). */
  missingFlags: string[];
  readOnly: string;
  /** The exact command a review runs, with placeholders for the private temp files. */
  command: string;
  install: string;
}

export interface DescribeAgentsOptions {
  /** The repository whose `.tollgate/state.json` holds the cooldowns; null outside one. */
  repoRoot: string | null;
  cwd: string;
  env: NodeJS.ProcessEnv;
  now: number;
  settingsFor: (name: AgentName) => AgentSettings;
  runProcess?: RunProcessFn;
}

export async function describeAgents(options: DescribeAgentsOptions): Promise<AgentStatus[]> {
  const marks: UnhealthyAdapters = options.repoRoot ? await readUnhealthyAdapters(options.repoRoot) : {};
  return Promise.all(agentAdapters.map((adapter) => describeAgent(adapter, marks, options)));
}

async function describeAgent(
  adapter: RegisteredAdapter,
  marks: UnhealthyAdapters,
  options: DescribeAgentsOptions,
): Promise<AgentStatus> {
  const spawn = options.runProcess ?? runProcess;
  const cwd = options.repoRoot ?? options.cwd;
  const probe = await probeAgent(adapter, { repoRoot: cwd, env: options.env, runProcess: spawn });
  const installed = probe.kind !== 'not_installed' && probe.kind !== 'unrecognized';
  let version: string | null = null;
  let missingFlags: string[] = [];
  if (installed) {
    const common = {
      cwd,
      env: { ...options.env, [REVIEWER_ENV_FLAG]: '1' },
      timeoutMs: 10_000,
      maxOutputBytes: 1 << 20,
    };
    version = await readAgentCliVersion(adapter, { cwd, env: options.env, runProcess: spawn });
    const help =
      probe.kind === 'ok' && adapter.helpArgs.join(' ') === adapter.probeArgs.join(' ')
        ? probe.helpText
        : await spawn(adapter.bin, adapter.helpArgs, common).then((run) => `${run.stdout}\n${run.stderr}`);
    missingFlags = flagsMissingFromHelp(adapter, help);
  }
  const mark = marks[adapter.name];
  // Health is a property of an installed CLI: a missing one is neither healthy nor cooling down.
  const health: AgentStatus['health'] = !installed
    ? { kind: 'unknown' }
    : isCoolingDown(mark, options.now)
      ? { kind: 'cooling_down', until: new Date(cooldownEndsAt(mark)).toISOString(), reason: mark.reason }
      : options.repoRoot
        ? { kind: 'healthy' }
        : { kind: 'unknown' };
  return {
    name: adapter.name,
    title: adapter.title,
    bin: adapter.bin,
    installed,
    version,
    versionVerified:
      version === null || adapter.verifiedVersions.length === 0
        ? null
        : adapter.verifiedVersions.some((verified) => version.includes(verified)),
    verified: adapter.verified,
    verifiedVersions: adapter.verifiedVersions,
    problem: probe.kind === 'ok' ? null : probe.message,
    health,
    missingFlags,
    readOnly: readOnlyOf(adapter, options.settingsFor(adapter.name)),
    command: reviewCommand(adapter, options.settingsFor(adapter.name), options.repoRoot ?? '<repo>'),
    install: adapter.installCommand,
  };
}

/** Pure: what keeps the reviewer read-only as the configured command runs it, not as the default would. */
export function readOnlyOf(adapter: RegisteredAdapter, settings: AgentSettings): string {
  const { mechanism, how, howWithoutTools } = adapter.readOnly;
  return `${mechanism}: ${!settings.allowToolUse && howWithoutTools ? howWithoutTools : how}`;
}

/** Pure: the review command as a shell line, for people to read and run by hand. */
export function reviewCommand(adapter: RegisteredAdapter, settings: AgentSettings, repoRoot: string): string {
  const argv = adapter.reviewArgs({
    ...settings,
    repoRoot,
    schemaPath: '<tmp>/answer.schema.json',
    schemaJson: '<answer JSON schema>',
    answerPath: '<tmp>/answer.txt',
    prompt: '<prompt>',
  });
  const env = Object.entries({ [REVIEWER_ENV_FLAG]: '1', ...adapter.reviewEnv(settings) }).map(
    ([name, value]) => `${name}=${shellQuote(value)}`,
  );
  const stdin = adapter.promptVia === 'stdin' ? ' < <tmp>/prompt.txt' : '';
  return `cd ${shellQuote(repoRoot)} && ${env.join(' ')} ${[adapter.bin, ...argv].map(shellQuote).join(' ')}${stdin}`;
}

export function shellQuote(arg: string): string {
  if (/^[A-Za-z0-9_\-.,/=:@%+]+$/.test(arg)) return arg;
  // Placeholders stay readable: <repo>, <prompt>, <tmp>/answer.txt.
  if (/^<[a-z]+>(\/[\w.]+)?$/.test(arg)) return arg;
  return `'${arg.replace(/'/g, `'\\''`)}'`;
}

/** Pure: the text `tollgate agents` prints. */
export function renderAgents(statuses: readonly AgentStatus[]): string {
  const lines: string[] = [];
  for (const status of statuses) {
    const installed = status.installed
      ? `installed${status.version ? ` (${status.version})` : ''}`
      : `not installed; install with: ${status.install}`;
    const verification = !status.verified
      ? 'unverified: flags from the documentation only'
      : status.versionVerified === false
        ? `flags verified on ${status.verifiedVersions.join(', ')}, not on this version`
        : `flags verified on ${status.verifiedVersions.join(', ')}`;
    const health = !status.installed
      ? null
      : status.health.kind === 'cooling_down'
        ? `cooling down until ${status.health.until.slice(0, 16).replace('T', ' ')} UTC (${status.health.reason})`
        : status.health.kind === 'healthy'
          ? 'healthy'
          : 'health unknown (not in a repository)';
    lines.push(`${status.name} (${status.title}): ${[installed, verification, health].filter(Boolean).join('; ')}`);
    if (status.installed && status.problem) lines.push(`  problem: ${status.problem}`);
    if (status.missingFlags.length > 0) {
      lines.push(`  warning: this version's help does not list ${status.missingFlags.join(', ')}; reviews may fail`);
    }
    lines.push(`  read-only: ${status.readOnly}`);
    lines.push(`  command: ${status.command}`);
  }
  return `${lines.join('\n')}\n`;
}
