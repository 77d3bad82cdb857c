import type { AgentAdapter, AnalysisArgsOptions, ReviewArgsOptions } from './types.js';

/** `--flag`, `-f` or `--flag=value` in an argv → the flags, once each. */
function flagsOf(argv: readonly string[]): string[] {
  return [...new Set(argv.filter((arg) => /^--?[A-Za-z]/.test(arg)).map((arg) => arg.split('=')[0]!))];
}

const SAMPLE: ReviewArgsOptions = {
  repoRoot: '/repo',
  model: 'model',
  thinkingBudget: 'low',
  allowToolUse: true,
  maxTurns: 10,
  schemaPath: '/tmp/answer.schema.json',
  schemaJson: '{}',
  answerPath: '/tmp/answer.txt',
  prompt: 'prompt',
};

const ANALYSIS_SAMPLE: AnalysisArgsOptions = {
  ...SAMPLE,
  workspace: '/workspace',
  sessionId: '00000000-0000-4000-8000-000000000000',
  resume: false,
};

/**
 * Every flag the adapter can pass, over its settings (model and effort on, tools on and off), in a review and in an
 * analysis (new session and resumed).
 */
function flagsPassedBy(adapter: AgentAdapter): string[] {
  return flagsOf([
    ...adapter.reviewArgs(SAMPLE),
    ...adapter.reviewArgs({ ...SAMPLE, allowToolUse: false }),
    ...adapter.analysisArgs(ANALYSIS_SAMPLE),
    ...adapter.analysisArgs({ ...ANALYSIS_SAMPLE, resume: true }),
  ]);
}

/**
 * Flags that a CLI's help text does not list, hidden flags the adapter declares excepted. Empty means the installed
 * CLI still knows every flag the adapter passes.
 */
export function flagsMissingFromHelp(adapter: AgentAdapter, help: string): string[] {
  return flagsPassedBy(adapter).filter((flag) => {
    if (adapter.hiddenFlags?.[flag]) return false;
    const escaped = flag.replace(/-/g, '\\-');
    return !new RegExp(`(^|[\\s,\\[])${escaped}([\\s,=\\]]|$)`, 'm').test(help);
  });
}
