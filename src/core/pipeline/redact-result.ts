import type { Redact } from '../../secrets/redact.js';
import type { ToolResult } from '../result.js';

export type { Redact };

let loaded: Promise<Redact> | undefined;

/**
 * The secret scanner's masking (`src/secrets/redact.ts`), loaded on first use so that runs whose tools all
 * skip never pay for building it. Everything the pipeline passes on from outside (tool results, progress lines, hook
 * input and output) goes through it before it reaches events, state, reports or the terminal.
 */
export function loadRedactor(): Promise<Redact> {
  loaded ??= import('../../secrets/redact.js').then(
    ({ redactSecrets }) =>
      (text: string) =>
        redactSecrets(text),
  );
  return loaded;
}

/**
 * Builds the masking's scanner now rather than on the first text it masks: a run has this done while git takes its
 * snapshot (`ChangeSetOptions.whileGitWorks`), when the process would otherwise only wait. Every run that gets as far
 * as its report masks text (tool summaries, file paths), so this is work the run does anyway, moved to where it costs
 * no wall time.
 */
export function prepareRedactor(): void {
  import('../../secrets/redact.js').then(
    ({ sharedSecretScanner }) => sharedSecretScanner(),
    () => undefined, // loadRedactor reports a failure where the masking is needed
  );
}

/** Masks strings anywhere in a JSON-shaped value; a mask that cut through JSON syntax drops the value instead. */
export function redactJson<T>(value: T, redact: Redact): T | { redacted: string } {
  if (value === undefined) return value;
  const text = JSON.stringify(value);
  const masked = redact(text);
  if (masked === text) return value;
  try {
    return JSON.parse(masked) as T;
  } catch {
    return { redacted: 'held a secret and was dropped' };
  }
}

/**
 * A tool's result with secrets masked: a check's output tail or an analyzer's message can quote a credential the
 * validator itself never looked for.
 */
export async function redactResult(result: ToolResult): Promise<ToolResult> {
  const redact = await loadRedactor();
  const details = result.details === undefined ? undefined : redactJson(result.details, redact);
  return {
    ...result,
    summary: redact(result.summary),
    findings: result.findings.map((finding) => {
      const { imported, ...rest } = finding;
      // An imported result whose SARIF held a secret that cut through its JSON loses its SARIF, never the finding.
      const masked = imported === undefined ? undefined : redactJson(imported, redact);
      return {
        ...rest,
        title: redact(finding.title),
        ...(finding.body !== undefined ? { body: redact(finding.body) } : {}),
        ...(masked && !('redacted' in masked) ? { imported: masked } : {}),
      };
    }),
    ...(details !== undefined ? { details: details as Record<string, unknown> } : {}),
  };
}
