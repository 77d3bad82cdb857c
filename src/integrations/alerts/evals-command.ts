import { readFile, stat } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { TollgateError } from '../../core/errors.js';
import { listWorkspaceFiles } from './analysis-call.js';
import { evaluateReport, formatEvalResult } from './evals.js';

export interface EvalsCommandOptions {
  report: string;
  repository?: string;
  alertId?: string;
  /** The analysis workspace the report's evidence lives in; default the report's folder when it has scripts/ or logs/. */
  workspace?: string;
  json: boolean;
  cwd: string;
  stdout(text: string): void;
}

/** `tollgate evals REPORT.md`: the deterministic checks on one report. Exit 0 when no error check fails, else 1. */
export async function runEvalsCommand(options: EvalsCommandOptions): Promise<number> {
  const path = resolve(options.cwd, options.report);
  const text = await readFile(path, 'utf8').catch((error: NodeJS.ErrnoException) => {
    throw new TollgateError('not_found', `${options.report}: cannot read the report (${error.code ?? 'error'})`);
  });
  let workspace = options.workspace ? resolve(options.cwd, options.workspace) : undefined;
  if (!workspace) {
    const dir = dirname(path);
    const has = async (name: string) => (await stat(resolve(dir, name)).catch(() => null))?.isDirectory() ?? false;
    if ((await has('scripts')) || (await has('logs'))) workspace = dir;
  }
  const result = evaluateReport(text, {
    expected: {
      ...(options.repository ? { repository: options.repository } : {}),
      ...(options.alertId ? { alertId: options.alertId } : {}),
    },
    ...(workspace ? { workspaceFiles: await listWorkspaceFiles(workspace) } : {}),
  });
  if (options.json) options.stdout(`${JSON.stringify({ report: options.report, ...result }, null, 2)}\n`);
  else {
    const failed = result.checks.filter((check) => !check.passed && check.severity === 'error').length;
    options.stdout(
      `${formatEvalResult(result)}\n${options.report}: ${result.passed ? 'passed' : `failed (${failed} error check${failed === 1 ? '' : 's'})`}, score ${Math.round(result.score * 100)}%\n`,
    );
  }
  return result.passed ? 0 : 1;
}
