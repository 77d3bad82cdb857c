import { compactUsage, numberField, objectField, parseJsonLines, stringField } from './json-output.js';
import type { AgentAdapter, AgentSettings, AnalysisArgsOptions, ReviewArgsOptions } from './types.js';

/**
 * OpenAI Codex CLI. Verified against 0.169.0 (`codex exec --help`). `exec` already runs with
 * `approval: never`; the config key is `approval_policy` (`ask_for_approval` is silently ignored). Offline, Codex
 * retries forever instead of failing, so the review always runs under a hard timeout and `codex login status` is the
 * auth preflight.
 */
export const codexAdapter: AgentAdapter<'codex'> = {
  name: 'codex',
  title: 'Codex CLI',
  environmentMarkers: ['CODEX_SANDBOX', 'CODEX_SANDBOX_NETWORK_DISABLED'],
  bin: 'codex',
  npmPackage: '@openai/codex',
  installCommand: 'npm install -g @openai/codex',
  verifiedVersions: ['0.169.0'],
  verified: true,
  readOnly: { mechanism: 'sandbox', how: 'every command runs in its read-only sandbox (--sandbox read-only)' },
  probeArgs: ['--help'],
  versionArgs: ['--version'],
  authCheckArgs: ['login', 'status'],
  loginCommand: 'codex login',
  helpArgs: ['exec', '--help'],
  promptVia: 'stdin',
  reviewArgs(options: ReviewArgsOptions): string[] {
    const args = ['exec', '-C', options.repoRoot, '--sandbox', 'read-only', '-c', 'approval_policy="never"'];
    if (options.model) args.push('-m', options.model);
    if (options.thinkingBudget !== 'off') args.push('-c', `model_reasoning_effort="${options.thinkingBudget}"`);
    args.push(
      '--disable',
      'hooks',
      '--ephemeral',
      '--skip-git-repo-check',
      '--json',
      '--output-schema',
      options.schemaPath,
      '-o',
      options.answerPath,
      // "-": read the prompt from stdin.
      '-',
    );
    return args;
  },
  reviewEnv(_settings: AgentSettings): Record<string, string> {
    return {};
  },
  // `codex exec resume` needs the thread id from the event stream; a continuation re-prompts instead.
  analysisSession: 'reprompt',
  analysisArgs(options: AnalysisArgsOptions): string[] {
    // workspace-write: the OS sandbox lets commands write only under -C (and temp dirs); the checkout is not there.
    const args = ['exec', '-C', options.workspace, '--sandbox', 'workspace-write', '-c', 'approval_policy="never"'];
    if (options.model) args.push('-m', options.model);
    if (options.thinkingBudget !== 'off') args.push('-c', `model_reasoning_effort="${options.thinkingBudget}"`);
    args.push('--disable', 'hooks', '--ephemeral', '--skip-git-repo-check', '--json', '-o', options.answerPath, '-');
    return args;
  },
  analysisEnv(_settings: AgentSettings): Record<string, string> {
    return {};
  },
  usageLimitPhrases: [
    "you've hit your usage limit",
    "you've reached your usage limit",
    'usage limit reached',
    'quota exceeded',
    "you're out of credits",
    'workspace is out of credits',
    'hit your spend cap',
  ],
  rateLimitPhrases: ['rate limit exceeded', 'selected model is at capacity', 'experiencing high load'],
  notLoggedInPhrases: ['not logged in', "please run 'codex login'", 'access token could not be refreshed'],
  usageOf(stdout) {
    // --json: shell commands are command_execution items; the last turn.completed carries the tokens.
    const events = parseJsonLines(stdout);
    const tools = events.filter(
      (event) => event.type === 'item.completed' && objectField(event, 'item')?.type === 'command_execution',
    ).length;
    const done = events.findLast((event) => event.type === 'turn.completed');
    const usage = (done?.usage ?? {}) as Record<string, unknown>;
    return compactUsage({
      inputTokens: numberField(usage.input_tokens),
      outputTokens: numberField(usage.output_tokens),
      toolCalls: tools,
    });
  },
  toolInputsOf(stdout) {
    // `--json` reports every shell command as an `item.completed` of type command_execution.
    return parseJsonLines(stdout).flatMap((event) => {
      const item = objectField(event, 'item');
      const command = event.type === 'item.completed' ? stringField(item, 'command') : undefined;
      return command !== undefined ? [command] : [];
    });
  },
  readOutput({ stdout, answerFile }) {
    // `-o` holds the last agent message; the JSONL stream is the fallback and carries the errors.
    const events = parseJsonLines(stdout);
    const failed = [...events].reverse().find((event) => event.type === 'turn.failed' || event.type === 'error');
    let lastMessage: string | undefined;
    for (const event of events) {
      const item = objectField(event, 'item');
      if (event.type === 'item.completed' && item?.type === 'agent_message') lastMessage = stringField(item, 'text');
    }
    const answer = answerFile?.trim() ? answerFile : lastMessage;
    if (answer !== undefined && answer.trim() !== '') return { kind: 'answer', text: answer };
    if (failed) {
      const message = stringField(failed, 'message') ?? stringField(objectField(failed, 'error'), 'message') ?? '';
      return { kind: 'failure', failure: 'error', message: message || 'turn failed' };
    }
    return { kind: 'unreadable', message: 'no agent message in the --json event stream and no -o file' };
  },
};
