import { parseJsonObject, stringField } from './json-output.js';
import type { AgentAdapter, AgentSettings, AnalysisArgsOptions, ReviewArgsOptions } from './types.js';

/**
 * Cursor CLI (`agent`). Not on npm (the npm package `cursor-agent` is an unrelated library), so these flags come from
 * Cursor's documented help only and were never run: `tollgate agents` says so. `-p` is print
 * mode, `--trust` is required for headless runs, `--mode ask` is read-only. No first-party statement says it reads
 * stdin, so the prompt is an argument, capped below Linux's 128 KiB per-argument limit. Never `--force`/`--yolo`.
 */
export const cursorAdapter: AgentAdapter<'cursor'> = {
  name: 'cursor',
  title: 'Cursor CLI',
  bin: 'agent',
  npmPackage: null,
  installCommand: 'curl https://cursor.com/install -fsS | bash',
  verifiedVersions: [],
  verified: false,
  readOnly: { mechanism: 'read-only-mode', how: 'ask mode, read-only by design (--mode ask)' },
  probeArgs: ['--help'],
  // `agent` is also the binary of other CLIs (xAI's Grok CLI): make sure this one is Cursor's.
  probeExpect: /cursor/i,
  versionArgs: ['--version'],
  loginCommand: 'agent login, or set CURSOR_API_KEY',
  helpArgs: ['--help'],
  promptVia: 'argument',
  maxPromptBytes: 120_000,
  reviewArgs(options: ReviewArgsOptions): string[] {
    const args = ['-p', '--trust', '--workspace', options.repoRoot, '--mode', 'ask', '--output-format', 'json'];
    // No effort or turn-cap flag; thinkingBudget and maxTurns are ignored for Cursor.
    if (options.model) args.push('--model', options.model);
    args.push(options.prompt);
    return args;
  },
  reviewEnv(_settings: AgentSettings): Record<string, string> {
    return {};
  },
  analysisSession: 'reprompt',
  analysisArgs(options: AnalysisArgsOptions): string[] {
    // --force runs commands without asking; --sandbox enabled keeps them in Cursor's sandbox (documented, unverified).
    const args = ['-p', '--trust', '--workspace', options.workspace, '--force', '--sandbox', 'enabled'];
    args.push('--output-format', 'json');
    if (options.model) args.push('--model', options.model);
    args.push(options.prompt);
    return args;
  },
  analysisEnv(_settings: AgentSettings): Record<string, string> {
    return {};
  },
  // No first-party list was found: the generic phrases (usage limit, quota, 429) apply.
  usageLimitPhrases: [],
  rateLimitPhrases: [],
  notLoggedInPhrases: ['authentication required', "please run 'agent login'"],
  usageOf() {
    // The documented result object carries no usage (its flags were never run here): nothing to report.
    return {};
  },
  readOutput({ stdout }) {
    // --output-format json: one result object, `{type:"result", subtype, is_error, result}` (documented, unverified).
    const resultObject = parseJsonObject(stdout);
    if (!resultObject)
      return { kind: 'unreadable', message: 'expected one JSON result object on stdout (--output-format json)' };
    const text = stringField(resultObject, 'result') ?? '';
    if (resultObject.is_error === true) return { kind: 'failure', failure: 'error', message: text || 'error' };
    return { kind: 'answer', text };
  },
};
