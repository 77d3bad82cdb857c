import { compactUsage, findJsonObject, numberField, objectField, parseJsonObject, stringField } from './json-output.js';
import type { AgentAdapter, AgentSettings, AnalysisArgsOptions, ReviewArgsOptions } from './types.js';

/**
 * Gemini CLI. Verified against 0.61.0 (`gemini --help`). `--sandbox` needs Docker and exits
 * without it, so read-only comes from plan mode (its policy denies every tool that is not read-only). Headless runs in
 * an untrusted folder exit 55 unless `--skip-trust`. There is no flag to turn hooks off: tollgate's hook sees
 * TOLLGATE_ACTIVE and allows at once. Never write `.gemini/settings.json` into the repository.
 */
export const geminiAdapter: AgentAdapter<'gemini'> = {
  name: 'gemini',
  title: 'Gemini CLI',
  environmentMarkers: ['GEMINI_CLI'],
  bin: 'gemini',
  npmPackage: '@google/gemini-cli',
  installCommand: 'npm install -g @google/gemini-cli',
  verifiedVersions: ['0.61.0'],
  verified: true,
  readOnly: {
    mechanism: 'read-only-mode',
    how: 'plan mode: its policy denies every tool that is not read-only (--approval-mode plan)',
  },
  probeArgs: ['--help'],
  versionArgs: ['--version'],
  loginCommand: 'gemini (then pick an auth method), or set GEMINI_API_KEY',
  helpArgs: ['--help'],
  promptVia: 'stdin',
  reviewArgs(options: ReviewArgsOptions): string[] {
    const args = ['--skip-trust', '--approval-mode', 'plan', '-o', 'json'];
    // No reasoning-effort flag in 0.61; thinkingBudget is ignored for Gemini.
    if (options.model) args.push('-m', options.model);
    // The stdin text comes first, then this: a short -p makes the run headless explicitly.
    args.push('-p', 'Carry out the review described above.');
    return args;
  },
  reviewEnv(_settings: AgentSettings): Record<string, string> {
    return {};
  },
  // `--resume` takes "latest" or an index, not an id we could pin (0.61.0 help): re-prompt with the prior output.
  analysisSession: 'reprompt',
  analysisArgs(options: AnalysisArgsOptions): string[] {
    // yolo auto-approves tools; the file tools stay inside the workspace (the cwd), the shell is not sandboxed.
    const args = ['--skip-trust', '--approval-mode', 'yolo', '-o', 'json'];
    if (options.model) args.push('-m', options.model);
    args.push('-p', 'Carry out the task described above.');
    return args;
  },
  analysisEnv(_settings: AgentSettings): Record<string, string> {
    return {};
  },
  usageLimitPhrases: [
    'exhausted your daily quota',
    'usage limit reached for',
    'request a quota increase',
    'possible quota limitations',
    'quota_exhausted',
    'terminalquotaerror',
    'exhausted your capacity',
  ],
  rateLimitPhrases: ['rate limit exceeded', 'retryablequotaerror', 'model_capacity_exhausted', 'capacity exceeded'],
  notLoggedInPhrases: ['please set an auth method'],
  usageOf(stdout) {
    // -o json: `stats.tools.totalCalls`.
    const stats = (parseJsonObject(stdout)?.stats ?? {}) as Record<string, unknown>;
    const tools = (stats.tools ?? {}) as Record<string, unknown>;
    return compactUsage({ toolCalls: numberField(tools.totalCalls) });
  },
  readOutput({ stdout, stderr }) {
    // -o json: `{session_id, response, stats}` on stdout; errors go to stderr as `{session_id, error:{type,message,code}}`.
    const success = parseJsonObject(stdout);
    const response = stringField(success, 'response');
    if (response !== undefined) return { kind: 'answer', text: response };
    const error = objectField(success, 'error') ?? objectField(findJsonObject(stderr), 'error');
    if (error) {
      const message = stringField(error, 'message') ?? '';
      const type = stringField(error, 'type') ?? '';
      if (error.code === 41) return { kind: 'failure', failure: 'not_logged_in', message };
      if (type === 'TerminalQuotaError') return { kind: 'failure', failure: 'usage_limit', message };
      if (type === 'RetryableQuotaError') return { kind: 'failure', failure: 'rate_limited', message };
      return { kind: 'failure', failure: 'error', message: message || type || 'error' };
    }
    return { kind: 'unreadable', message: 'expected a JSON object with "response" on stdout (-o json)' };
  },
};
