import { compactUsage, objectField, parseJsonLines, stringField } from './json-output.js';
import type { AgentAdapter, AgentOutput, AgentSettings, AnalysisArgsOptions, ReviewArgsOptions } from './types.js';

const READ_ONLY_TOOLS = 'view,grep,glob';

/**
 * GitHub Copilot CLI. Verified against 1.0.102 (`copilot --help`). Piped stdin is prompt mode
 * (`-s` is `--silent`, not "non-interactive"). Only view/grep/glob exist (`--available-tools`) and writes and shell
 * are denied (`--deny-tool`; deny always wins). No flag turns hooks off; repo hooks stay off while the folder is
 * untrusted, and tollgate's own hook allows at once under TOLLGATE_ACTIVE. Never set COPILOT_ALLOW_ALL.
 */
export const copilotAdapter: AgentAdapter<'copilot'> = {
  name: 'copilot',
  title: 'GitHub Copilot CLI',
  bin: 'copilot',
  npmPackage: '@github/copilot',
  installCommand: 'npm install -g @github/copilot',
  verifiedVersions: ['1.0.102'],
  verified: true,
  readOnly: {
    mechanism: 'tool-allowlist',
    how: `only ${READ_ONLY_TOOLS} exist (--available-tools) and write/shell are denied (--deny-tool)`,
    howWithoutTools: 'every built-in tool exists (no --available-tools) but write/shell are denied (--deny-tool)',
  },
  probeArgs: ['--help'],
  versionArgs: ['--version'],
  loginCommand: "copilot (then /login), or 'gh auth login'",
  helpArgs: ['--help'],
  promptVia: 'stdin',
  reviewArgs(options: ReviewArgsOptions): string[] {
    const args = ['-C', options.repoRoot, '-s', '--no-ask-user', '--output-format', 'json'];
    // allowToolUse: false → no allow-list; the deny rules still keep it read-only.
    if (options.allowToolUse) args.push(`--available-tools=${READ_ONLY_TOOLS}`);
    args.push('--deny-tool=write,shell', '--disable-builtin-mcps');
    if (options.model) args.push('--model', options.model);
    if (options.thinkingBudget !== 'off') args.push('--reasoning-effort', options.thinkingBudget);
    return args;
  },
  reviewEnv(_settings: AgentSettings): Record<string, string> {
    return {};
  },
  // `--session-id=<id>` names a new session and `--resume=<id>` continues it (1.0.102 help examples).
  analysisSession: 'resume',
  analysisArgs(options: AnalysisArgsOptions): string[] {
    // Path access is the cwd (-C) only: --disallow-temp-dir drops the temp-dir exception.
    const args = ['-C', options.workspace, '-s', '--no-ask-user', '--output-format', 'json'];
    args.push('--allow-tool=write,shell', '--disallow-temp-dir', '--disable-builtin-mcps');
    if (options.model) args.push('--model', options.model);
    if (options.thinkingBudget !== 'off') args.push('--reasoning-effort', options.thinkingBudget);
    args.push(options.resume ? `--resume=${options.sessionId}` : `--session-id=${options.sessionId}`);
    return args;
  },
  analysisEnv(_settings: AgentSettings): Record<string, string> {
    return {};
  },
  usageLimitPhrases: [
    "you've hit your session rate limit",
    "you've reached your weekly rate limit",
    "you've reached the spending limit",
    "you've run out of your included ai credits",
    "you've reached your additional usage limit",
    'no remaining quota for premium requests',
    "you've used all your copilot free chat requests",
    'credit limit reached',
    'session limit reached',
  ],
  rateLimitPhrases: [
    "you've hit your rate limit",
    "you've hit the rate limit for this model",
    "you've been rate limited",
  ],
  notLoggedInPhrases: [
    'no authentication information found',
    'classic personal access tokens',
    'authentication token found but could not be validated',
  ],
  usageOf(stdout) {
    // Session events: one tool.execution_start per tool call; tokens are not in the events.
    return compactUsage({
      toolCalls: parseJsonLines(stdout).filter((event) => event.type === 'tool.execution_start').length,
    });
  },
  toolInputsOf(stdout) {
    // Session events: `tool.execution_start` carries the tool's arguments (a path, a command).
    return parseJsonLines(stdout).flatMap((event) => {
      const data = objectField(event, 'data');
      return event.type === 'tool.execution_start' && data?.arguments !== undefined
        ? [JSON.stringify(data.arguments)]
        : [];
    });
  },
  readOutput({ stdout }): AgentOutput {
    // --output-format json: JSONL session events, then `{"type":"result",…,"exitCode"}` (schemas/session-events.schema.json).
    const events = parseJsonLines(stdout);
    if (events.length === 0)
      return { kind: 'unreadable', message: 'no JSONL session events on stdout (--output-format json)' };
    const error = [...events].reverse().find((event) => event.type === 'session.error');
    if (error) {
      const data = objectField(error, 'data');
      const message = stringField(data, 'message') ?? 'session error';
      const type = stringField(data, 'errorType');
      if (type === 'quota') return { kind: 'failure', failure: 'usage_limit', message };
      if (type === 'rate_limit') return { kind: 'failure', failure: 'rate_limited', message };
      if (type === 'authentication') return { kind: 'failure', failure: 'not_logged_in', message };
      return { kind: 'failure', failure: 'error', message };
    }
    // The answer is the root agent's last message (sub-agents carry agentId or parentToolCallId).
    let answer: string | undefined;
    for (const event of events) {
      const data = objectField(event, 'data');
      if (event.type !== 'assistant.message' || event.agentId !== undefined || data?.parentToolCallId !== undefined)
        continue;
      const content = stringField(data, 'content');
      if (content?.trim()) answer = content;
    }
    if (answer !== undefined) return { kind: 'answer', text: answer };
    return { kind: 'unreadable', message: 'no assistant.message with content in the session events' };
  },
};
