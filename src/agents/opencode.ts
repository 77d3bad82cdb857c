import { compactUsage, numberField, objectField, parseJsonLines, stringField } from './json-output.js';
import type { AgentAdapter, AgentSettings, AnalysisArgsOptions, ReviewArgsOptions } from './types.js';

/** Merged last into every agent's permissions: the plan agent alone still allows bash. */
const DENY_WRITES = '{"edit":"deny","bash":"deny","webfetch":"deny"}';
/** An analysis edits and runs commands in its workspace; paths outside it are denied (`external_directory`, [read]). */
const WORKSPACE_ONLY = '{"edit":"allow","bash":"allow","webfetch":"allow","external_directory":"deny"}';

/**
 * OpenCode. Verified against 1.18.33 (`opencode run --help`). It needs no login (its default model is free), so an
 * offline run hangs until the timeout. The JSON event stream was seen but never with a real answer: the reader takes
 * every text part, which is what `--format json` prints for the model's text.
 */
export const opencodeAdapter: AgentAdapter<'opencode'> = {
  name: 'opencode',
  title: 'OpenCode',
  bin: 'opencode',
  npmPackage: 'opencode-ai',
  installCommand: 'npm install -g opencode-ai',
  verifiedVersions: ['1.18.33'],
  verified: true,
  readOnly: {
    mechanism: 'read-only-mode',
    how: 'the plan agent with edit, bash and webfetch denied (OPENCODE_PERMISSION)',
  },
  probeArgs: ['--help'],
  versionArgs: ['--version'],
  loginCommand: 'opencode auth login',
  helpArgs: ['run', '--help'],
  promptVia: 'stdin',
  reviewArgs(options: ReviewArgsOptions): string[] {
    const args = ['run', '--dir', options.repoRoot, '--agent', 'plan', '--format', 'json', '--pure'];
    // `--variant` is provider-specific, so thinkingBudget is not mapped.
    if (options.model) args.push('-m', options.model);
    return args;
  },
  reviewEnv(_settings: AgentSettings): Record<string, string> {
    return { OPENCODE_PERMISSION: DENY_WRITES };
  },
  // `--session <id>` continues a session, but a new one cannot be given our id: re-prompt instead.
  analysisSession: 'reprompt',
  analysisArgs(options: AnalysisArgsOptions): string[] {
    const args = ['run', '--dir', options.workspace, '--agent', 'build', '--format', 'json', '--pure'];
    if (options.model) args.push('-m', options.model);
    return args;
  },
  analysisEnv(_settings: AgentSettings): Record<string, string> {
    return { OPENCODE_PERMISSION: WORKSPACE_ONLY };
  },
  usageLimitPhrases: ['free limit reached', 'usage limit reached', 'insufficient_quota', 'exceeded your current quota'],
  rateLimitPhrases: ['rate limit exceeded'],
  notLoggedInPhrases: [],
  usageOf(stdout) {
    // --format json: step-finish parts carry the tokens and cost of each step.
    let inputTokens: number | undefined;
    let outputTokens: number | undefined;
    let costUsd: number | undefined;
    for (const event of parseJsonLines(stdout)) {
      const part = objectField(event, 'part');
      if (part?.type !== 'step-finish') continue;
      const tokens = objectField(part, 'tokens');
      const add = (total: number | undefined, value: unknown) =>
        numberField(value) === undefined ? total : (total ?? 0) + (numberField(value) as number);
      inputTokens = add(inputTokens, tokens?.input);
      outputTokens = add(outputTokens, tokens?.output);
      costUsd = add(costUsd, part.cost);
    }
    return compactUsage({ inputTokens, outputTokens, costUsd });
  },
  readOutput({ stdout }) {
    const events = parseJsonLines(stdout);
    if (events.length === 0) return { kind: 'unreadable', message: 'no JSON events on stdout (--format json)' };
    const error = events.find((event) => event.type === 'error');
    if (error) {
      const detail = objectField(error, 'error');
      const message = stringField(objectField(detail, 'data'), 'message') ?? stringField(detail, 'name') ?? 'error';
      return { kind: 'failure', failure: 'error', message };
    }
    const texts: string[] = [];
    for (const event of events) {
      const part = objectField(event, 'part');
      const text = stringField(part, 'text');
      if (part?.type === 'text' && text) texts.push(text);
    }
    if (texts.length > 0) return { kind: 'answer', text: texts.join('\n') };
    return { kind: 'unreadable', message: 'no text part in the JSON events' };
  },
};
