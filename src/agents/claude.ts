import { compactUsage, isJsonObject, numberField, parseJsonObject, stringField } from './json-output.js';
import type { AgentAdapter, AgentSettings, AnalysisArgsOptions, ReviewArgsOptions } from './types.js';

/** The built-ins a read-only reviewer gets. `--tools` sets which tools exist; `--allowedTools` only pre-approves. */
const READ_ONLY_TOOLS = 'Read,Grep,Glob';
/**
 * An analysis (validate-alert) writes scripts and runs them. The file tools work relative to the cwd (the workspace);
 * Bash is not sandboxed by Claude Code, which is why the agent only ever gets a copy of the repository.
 */
const ANALYSIS_TOOLS = 'Read,Grep,Glob,Write,Edit,Bash';

/**
 * Claude Code. Verified against 2.1.330 (`test/fixtures/agents/claude/2.1.330/help.txt`):
 * no `--cwd` (the spawn cwd is the repo), `--tools` restricts the toolset, `--permission-mode dontAsk` denies
 * anything not pre-approved, `--settings '{"disableAllHooks":true}'` keeps the user's hooks (tollgate's stop hook
 * included) from firing in the reviewer.
 */
export const claudeAdapter: AgentAdapter<'claude'> = {
  name: 'claude',
  title: 'Claude Code',
  environmentMarkers: ['CLAUDECODE'],
  bin: 'claude',
  npmPackage: '@anthropic-ai/claude-code',
  // Without @latest, npm on Node 20 silently resolves the last release whose engines allow Node 20 (2.1.197).
  installCommand: 'npm install -g @anthropic-ai/claude-code@latest',
  verifiedVersions: ['2.1.330'],
  verified: true,
  readOnly: {
    mechanism: 'tool-allowlist',
    how: `only ${READ_ONLY_TOOLS} exist (--tools) and anything else is denied (--permission-mode dontAsk)`,
    howWithoutTools: "no tools exist (--tools '') and anything else is denied (--permission-mode dontAsk)",
  },
  probeArgs: ['--help'],
  versionArgs: ['--version'],
  authCheckArgs: ['auth', 'status'],
  loginCommand: 'claude auth login',
  helpArgs: ['--help'],
  hiddenFlags: {
    '--max-turns': 'accepted and validated by 2.1.330 but not listed in --help ("argument \'abc\' is invalid")',
  },
  promptVia: 'stdin',
  reviewArgs(options: ReviewArgsOptions): string[] {
    const args = ['-p', '--output-format', 'json'];
    // allowToolUse: false → no tools at all ("" is the documented way to remove every built-in).
    if (options.allowToolUse) args.push('--tools', READ_ONLY_TOOLS, '--allowedTools', READ_ONLY_TOOLS);
    else args.push('--tools', '');
    args.push('--permission-mode', 'dontAsk', '--max-turns', String(options.maxTurns));
    if (options.model) args.push('--model', options.model);
    if (options.thinkingBudget !== 'off') args.push('--effort', options.thinkingBudget);
    args.push(
      '--settings',
      '{"disableAllHooks":true}',
      '--no-session-persistence',
      '--json-schema',
      options.schemaJson,
    );
    return args;
  },
  reviewEnv(_settings: AgentSettings): Record<string, string> {
    return {};
  },
  // `--session-id <uuid>` starts a session under our id and `--resume <id>` continues it (2.1.330 help), so a
  // continuation prompt lands in the same conversation. Sessions must persist for that: no --no-session-persistence.
  analysisSession: 'resume',
  analysisArgs(options: AnalysisArgsOptions): string[] {
    const tools = options.tools?.join(',') ?? ANALYSIS_TOOLS;
    const args = ['-p', '--output-format', 'json', '--tools', tools, '--allowedTools', tools];
    args.push('--permission-mode', 'dontAsk', '--max-turns', String(options.maxTurns));
    if (options.model) args.push('--model', options.model);
    if (options.thinkingBudget !== 'off') args.push('--effort', options.thinkingBudget);
    args.push('--settings', '{"disableAllHooks":true}');
    args.push(options.resume ? '--resume' : '--session-id', options.sessionId);
    return args;
  },
  analysisEnv(_settings: AgentSettings): Record<string, string> {
    return {};
  },
  usageLimitPhrases: [
    "you've hit your",
    "you've reached your",
    "you're out of usage credits",
    "you're out of extra usage",
    'is out of usage',
    "seat type doesn't include usage credits",
    'usage allocation has been disabled',
    'usage limit is set to $0',
    'requires usage credits',
    'credit balance is too low',
    'spend limit reached',
    'usage limit reached',
  ],
  rateLimitPhrases: ['request rejected (429)', '(rate-limited)', '(overloaded)'],
  notLoggedInPhrases: [
    'not logged in',
    'please run /login',
    'invalid api key',
    'oauth token has been revoked',
    'failed to authenticate',
    'run claude auth login',
  ],
  usageOf(stdout) {
    // --output-format json: the result object carries usage, cost and turns.
    const result = parseJsonObject(stdout);
    const usage = (result?.usage ?? {}) as Record<string, unknown>;
    return compactUsage({
      inputTokens: numberField(usage.input_tokens),
      outputTokens: numberField(usage.output_tokens),
      costUsd: numberField(result?.total_cost_usd),
      turns: numberField(result?.num_turns),
    });
  },
  readOutput({ stdout }) {
    // `--output-format json`: one result object (fixture not-logged-in.stdout).
    const resultObject = parseJsonObject(stdout);
    if (resultObject?.type !== 'result') {
      return { kind: 'unreadable', message: 'expected one JSON result object on stdout (--output-format json)' };
    }
    const text = stringField(resultObject, 'result') ?? '';
    if (resultObject.is_error === true) {
      const status = resultObject.api_error_status;
      if (status === 429) return { kind: 'failure', failure: 'rate_limited', message: text || 'API error 429' };
      return { kind: 'failure', failure: 'error', message: text || `error (${String(resultObject.subtype)})` };
    }
    // With --json-schema the answer arrives parsed in `structured_output`.
    const structured = resultObject.structured_output;
    if (isJsonObject(structured)) return { kind: 'answer', text, structured };
    return { kind: 'answer', text };
  },
};
